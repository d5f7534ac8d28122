import { create } from 'zustand';
import { plansPagePath } from '@numa/contract/plansFrame';
import { useUi } from '../../stores/ui';

/**
 * The way back to the embedded plans page after Recharge (spec 001 §2: "when a pay-back URL exists,
 * closing an overlay returns to the numbers tab and its embedded plans panel"). The pay-back URL is
 * a path of the plans page, kept for this tab only (sessionStorage) so a reload on Recharge keeps it.
 */
const key = 'numa.plansPayBack';

interface PlansNav {
  /** The numbers tab should show the plans panel (set before navigating there). */
  pending: boolean;
  payBack: string | null;
}

const read = () => {
  try {
    const v = sessionStorage.getItem(key);
    return v && v.startsWith(plansPagePath) ? v : null;
  } catch {
    return null;
  }
};

export const usePlansNav = create<PlansNav>(() => ({ pending: false, payBack: read() }));

/** Opens the plans panel of the numbers tab (the numa notice, or the way back from Recharge). */
export function openPlans() {
  usePlansNav.setState({ pending: true });
  useUi.getState().navigate('numbers');
}

/** The frame asked for Recharge: remember where to come back to, and go. */
export function rechargeFromPlans(returnUrl: string) {
  try {
    sessionStorage.setItem(key, returnUrl);
  } catch {
    /* private mode: the way back lasts for this page only */
  }
  usePlansNav.setState({ payBack: returnUrl });
  useUi.getState().navigate('tabAccount', 'credit');
}

/** Closing a payment overlay: back to the plans page when Recharge was opened from it. */
export function returnToPlans(): boolean {
  if (!usePlansNav.getState().payBack) return false;
  openPlans();
  return true;
}

/** The plans panel opened: the path to load in the frame (the pay-back URL once, else the start). */
export function takePlansStart(): string {
  const back = usePlansNav.getState().payBack;
  try {
    sessionStorage.removeItem(key);
  } catch {
    /* nothing kept */
  }
  usePlansNav.setState({ pending: false, payBack: null });
  return back ?? plansPagePath;
}
