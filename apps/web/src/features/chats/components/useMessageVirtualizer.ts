import { useCallback, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Row } from '../logic/rows';
import type { ConvoMessage } from '../state/convo';

/** A row's height before it is measured: a separator, a picture, or a text by its length. */
const estimate = (row: Row<ConvoMessage> | undefined) => {
  if (!row || row.kind === 'separator') return 40;
  const m = row.message;
  if (m.media || m.previewUrl) return 236;
  return 48 + Math.floor(m.text.length / 48) * 21;
};

/**
 * The virtualiser of a conversation's rows (MessageView). Its key and size functions stay the same
 * until the rows change: the virtualiser lays out every row again (5,000 and more in a long
 * conversation) whenever `getItemKey` is a new function, which an inline one is at every render
 * (each scroll, a row measured, the clock's minute).
 */
export function useMessageVirtualizer(
  rows: readonly Row<ConvoMessage>[],
  scrollRef: RefObject<HTMLDivElement | null>,
) {
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const estimateSize = useCallback((i: number) => estimate(rows[i]), [rows]);
  return useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: 8,
    getItemKey,
  });
}
