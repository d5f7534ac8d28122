import { describe, expect, it } from 'vitest';
import { buildRows } from './rows';

describe('conversation rows', () => {
  it('puts a time separator above the first message and after gaps over 5 minutes', () => {
    const t0 = 1_700_000_000_000;
    const rows = buildRows([
      { smsId: 'a', date: t0 },
      { smsId: 'b', date: t0 + 60_000 },
      { smsId: 'c', date: t0 + 60_000 + 300_001 },
      { smsId: 'd', date: t0 + 60_000 + 600_001 },
    ]);
    expect(rows.map((r) => (r.kind === 'separator' ? `|${r.date - t0}` : r.key))).toEqual([
      '|0',
      'a',
      'b',
      '|360001',
      'c',
      'd',
    ]);
  });
});
