import { create } from 'zustand';
import { useUi } from '../../../stores/ui';
import { openRecharge } from '../../../shared/recharge';

/**
 * The way back to the embedded plans page after Recharge (spec 001 §2: "when a pay-back URL exists,
 * closing an overlay returns to the numbers tab and its embedded plans panel"). Recharge opens with
 * the numbers tab as its pay-back screen (shared/recharge.ts, which takes the user back there when
 * a payment dialog closes); this store adds the plans page's own path to load in the frame then.
 */
interface PlansNav {
  /** The numbers tab should show the plans panel. */
  pending: boolean;
  /** The frame's path to come back to (a `/plans/` path, checked by the message schema). */
  returnUrl: string | null;
}

export const usePlansNav = create<PlansNav>(() => ({ pending: false, returnUrl: null }));

/** Opens the plans panel of the numbers tab (the numa notice). */
export function openPlans() {
  usePlansNav.setState({ pending: true });
  useUi.getState().navigate('numbers');
}

/** The frame asked for Recharge: remember where it was, and go with the numbers tab to come back to. */
export function rechargeFromPlans(returnUrl: string) {
  usePlansNav.setState({ returnUrl });
  openRecharge('numbers');
}

/** The plans panel opened: the path to load in the frame (the way back from Recharge once, else the start). */
export function takePlansStart(start: string): string {
  const { returnUrl } = usePlansNav.getState();
  usePlansNav.setState({ pending: false, returnUrl: null });
  return returnUrl ?? start;
}

// back on the numbers tab from Recharge: the plans panel again; leaving Recharge elsewhere forgets it
useUi.subscribe((s) => {
  if (!usePlansNav.getState().returnUrl) return;
  if (s.tab === 'numbers') usePlansNav.setState({ pending: true });
  else if (s.tab !== 'tabAccount' || s.panel !== 'credit') usePlansNav.setState({ returnUrl: null });
});
