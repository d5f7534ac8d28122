import { type InputOf, type PlanChangeOption } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';

/* What changes the account's rented numbers: renting, leaving, renewing, changing plans, call settings.
 * Each caller refreshes what it changed (refreshNumbers in ./numbers.ts). */

/** Rents a free number on a plan (spec 001 §2 New number). */
export const subscribeNumber = (input: InputOf<typeof endpoints.subVirtualPhone>) =>
  call(endpoints.subVirtualPhone, input, { silent: true });

/** Stops a rented number's renewal. */
export const unsubscribeNumber = (n: { telCode: string; phone: string }) =>
  call(endpoints.unSubVirtualPhone, { telCode: n.telCode, phone: n.phone }, { silent: true });

/** Rents again a number of the subscription history. */
export const resubscribeNumber = (e: InputOf<typeof endpoints.reSubVirtualPhone>) =>
  call(endpoints.reSubVirtualPhone, { historyId: e.historyId, date: e.date }, { silent: true });

/** What changing to a plan would do (the options of when it takes effect). */
export const previewPlanChange = (fullNumber: string, planId: number) =>
  call(endpoints.preChangePlan, { virtualNumber: fullNumber, planId }, { silent: true });

/** Changes a number's plan, with the option chosen. */
export const changePlan = (fullNumber: string, o: Pick<PlanChangeOption, 'planId' | 'type'>) =>
  call(endpoints.changePlan, { virtualNumber: fullNumber, planId: o.planId, type: o.type }, { silent: true });

/** Forwards calls to the account's phone, or takes them as voicemail (the server answers both flags). */
export const setCallHandling = (which: 'forward' | 'voicemail', on: boolean) =>
  which === 'forward'
    ? call(endpoints.setForward, { forward: on ? 1 : 0 }, { silent: true })
    : call(endpoints.setVoicemail, { voicemail: on ? 1 : 0 }, { silent: true });
