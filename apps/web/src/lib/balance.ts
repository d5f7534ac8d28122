import { BalanceEvent } from '@numa/contract';
import { queryClient } from './query';

/** The balance's query key: every screen that shows the balance reads it (features/account useBalance). */
export const balanceKey = ['account', 'balance'] as const;

/**
 * The server's `balance` socket event (after every committed balance change, whoever made it): every
 * balance on screen updates at once, in every tab, without polling.
 */
export function applyBalanceEvent(raw: unknown) {
  const parsed = BalanceEvent.safeParse(raw);
  if (!parsed.success) return;
  queryClient.setQueryData(balanceKey, { balance: parsed.data.balance });
}
