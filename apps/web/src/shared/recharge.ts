import { create } from 'zustand';
import { pathOf, useUi } from '../stores/ui';

/** Where a top-up started outside the account tab returns to: the numbers tab (spec 001 §2). */
export type PayBack = 'numbers';

export const usePayBack = create<{ back: PayBack | null }>(() => ({ back: null }));

/**
 * Opens Recharge; `back`: the screen the top-up started from (the numbers tab): the provider sends
 * the payer back there (the order's return URL), and closing a payment dialog returns there too.
 */
export function openRecharge(back: PayBack | null = null) {
  usePayBack.setState({ back });
  useUi.getState().navigate('tabAccount', 'credit');
}

/** The order's return URL: the pay-back screen, else Recharge itself. */
export const returnUrlOf = (back: PayBack | null) =>
  `${window.location.origin}${back ? pathOf(back, 'credit') : pathOf('tabAccount', 'credit')}`;

/** Leaves Recharge for the pay-back screen, if any (a payment dialog closed). */
export function goBackAfterPayment() {
  const { back } = usePayBack.getState();
  if (!back) return;
  usePayBack.setState({ back: null });
  useUi.getState().navigate(back);
}

// leaving Recharge any other way forgets where it came from
useUi.subscribe((s) => {
  if ((s.tab !== 'tabAccount' || s.panel !== 'credit') && usePayBack.getState().back)
    usePayBack.setState({ back: null });
});
