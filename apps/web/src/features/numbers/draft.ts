import { create } from 'zustand';
import type { NumberCountry } from '@numa/contract';
import { usePayBack } from '../../shared/recharge';
import { useUi } from '../../stores/ui';

/** The choices of New number (both steps), kept while the user tops up from it (issue 20). */
export interface NewNumberDraft {
  code: NumberCountry | null;
  province: string | null;
  areaCode: string | null;
  phone: string | null;
  step: 1 | 2;
  group: string | null;
  planId: number | null;
  agreed: boolean;
}

const empty: NewNumberDraft = {
  code: null,
  province: null,
  areaCode: null,
  phone: null,
  step: 1,
  group: null,
  planId: null,
  agreed: false,
};

/**
 * New number's state outlives its screen: Recharge opened from it (its balance button, the
 * insufficient-balance dialog) comes back to step 2 with the country, number and plan still chosen,
 * as the embedded plans page does. Leaving the numbers tab any other way starts New number over.
 */
export const useNewNumberDraft = create<NewNumberDraft>(() => empty);

export const setDraft = (p: Partial<NewNumberDraft>) => useNewNumberDraft.setState(p);

/** New number from the start (a number was rented, or the user left). */
export const forgetDraft = () => useNewNumberDraft.setState(empty, true);

useUi.subscribe((s) => {
  const inRechargeFromNumbers =
    s.tab === 'tabAccount' && s.panel === 'credit' && usePayBack.getState().back === 'numbers';
  if (s.tab !== 'numbers' && !inRechargeFromNumbers && useNewNumberDraft.getState() !== empty) forgetDraft();
});
