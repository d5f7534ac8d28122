import { BalanceEvent } from '@numa/contract';
import { queryClient } from './query';
import { queryKeys } from './queryKeys';

/**
 * The server's `balance` socket event (after every committed balance change, whoever made it): every
 * balance on screen updates at once, in every tab, without polling.
 */
export function applyBalanceEvent(raw: unknown) {
  const parsed = BalanceEvent.safeParse(raw);
  if (!parsed.success) return;
  queryClient.setQueryData(queryKeys.account.balance(), { balance: parsed.data.balance });
  // every balance change is a bill (and a top-up, its refund or chargeback, a payment's state): the
  // bill and payment histories are read again when shown, at once when open
  void queryClient.invalidateQueries({ queryKey: queryKeys.history.allBills });
  void queryClient.invalidateQueries({ queryKey: queryKeys.history.allPayments });
}
