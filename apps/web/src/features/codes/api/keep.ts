import { type VerificationHistoryEntry } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';

/* Keeping a verification number by the month (spec 001 §4 Subscribe); callers refresh the area
 * (refreshCodes) and the balance. */

/** Keeps a number for the app, charged a month now and renewed monthly. */
export const keepCodeNumber = (app: string, number: string) =>
  call(endpoints.subVerificationCodePhone, { app, number }, { silent: true });

/** Stops keeping a number. */
export const releaseCodeNumber = (app: string, number: string) =>
  call(endpoints.unSubVerificationCodePhone, { app, number });

/** Keeps again a number of the history. */
export const rekeepCodeNumber = (e: Pick<VerificationHistoryEntry, 'historyId' | 'date'>) =>
  call(endpoints.reSubVerificationCodePhone, { historyId: e.historyId, date: e.date }, { silent: true });
