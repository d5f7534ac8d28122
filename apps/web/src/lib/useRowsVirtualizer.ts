import { useCallback, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

/**
 * TanStack Virtual over `rows` (each with its `key`), each sized by `estimate(row)` until it is
 * measured, in the element of `scrollRef`. The key and size functions are made once per `rows` array:
 * the virtualiser lays out every row again whenever its `getItemKey` is a new function, which an
 * inline one is at every render (a scroll, a row measured, the clock's minute): 10,000 chats or
 * contacts, or 5,000 messages, at each. `estimate` is a module's function (the same at every render).
 */
export function useRowsVirtualizer<R extends { key: string }>(
  rows: readonly R[],
  scrollRef: RefObject<HTMLElement | null>,
  estimate: (row: R | undefined) => number,
  overscan: number,
) {
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const estimateSize = useCallback((i: number) => estimate(rows[i]), [rows, estimate]);
  return useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan,
    getItemKey,
  });
}
