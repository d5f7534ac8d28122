import { ScheduledEvent } from '@numa/contract';
import { queryClient } from './query';
import { queryKeys } from './queryKeys';

/**
 * The server's `scheduled` socket event (issue 22 §2): a scheduled message of the account was
 * scheduled, edited, cancelled, sent or failed (in this tab, another one, or by the server at its
 * time). Its conversation's list is read again where it is shown.
 */
export function applyScheduledEvent(raw: unknown) {
  const parsed = ScheduledEvent.safeParse(raw);
  if (!parsed.success) return;
  const { fromNumber, toNumber } = parsed.data.scheduled;
  void queryClient.invalidateQueries({ queryKey: queryKeys.scheduled(fromNumber, toNumber) });
}
