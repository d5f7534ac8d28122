import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRows } from '../logic/rows';
import type { ConvoMessage } from '../state/convo';
import { useMessageVirtualizer } from './useMessageVirtualizer';

const NOW = Date.UTC(2026, 10, 28, 12);
const message = (i: number): ConvoMessage => ({
  smsId: `s${i}`,
  date: NOW - (5000 - i) * 30_000,
  type: 'sms',
  text: `line ${i}`,
  media: '',
  direction: i % 3 ? 'in' : 'out',
  status: 0,
  highlightTarget: '',
  highlightText: '',
});

describe('the conversation virtualiser', () => {
  it('lays the rows out again when they change, not at every render', () => {
    const messages = Array.from({ length: 5000 }, (_, i) => message(i));
    const rows = buildRows(messages);
    const scrollRef = { current: null };
    const { result, rerender } = renderHook(({ rows }) => useMessageVirtualizer(rows, scrollRef), {
      initialProps: { rows },
    });
    const first = result.current.getMeasurements();
    expect(first).toHaveLength(rows.length);
    // a render for anything else (a scroll, a measured row, the clock's minute): the same layout
    rerender({ rows });
    expect(result.current.getMeasurements()).toBe(first);
    // a message more: laid out again, the rows before it where they were
    const more = buildRows([...messages, message(5000)]);
    rerender({ rows: more });
    const next = result.current.getMeasurements();
    expect(next).not.toBe(first);
    expect(next).toHaveLength(more.length);
    expect(next[rows.length - 1]!.start).toBe(first[rows.length - 1]!.start);
    expect(next[next.length - 1]!.key).toBe('s5000');
  });
});
