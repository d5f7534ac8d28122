import { needsSeparator } from './dates';

export type Row<M> =
  { kind: 'separator'; key: string; date: number } | { kind: 'message'; key: string; message: M };

/**
 * The rows of a conversation: each message, with a time separator above it when it comes more than
 * 5 minutes after the one before (and above the first).
 */
export function buildRows<M extends { smsId: string; date: number }>(messages: readonly M[]): Row<M>[] {
  const rows: Row<M>[] = [];
  let previous: number | undefined;
  for (const m of messages) {
    if (needsSeparator(previous, m.date))
      rows.push({ kind: 'separator', key: `sep-${m.smsId}`, date: m.date });
    rows.push({ kind: 'message', key: m.smsId, message: m });
    previous = m.date;
  }
  return rows;
}
