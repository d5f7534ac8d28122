import { type InputOf } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';

/* Receiving and sending codes on a locked number (spec 001 §4). */

/** Locks a number (a given one or a fresh one) for the polling window. */
export const lockCodeNumber = (input: InputOf<typeof endpoints.lockVerificationCodePhone>) =>
  call(endpoints.lockVerificationCodePhone, input, { silent: true });

/** One poll of a locked number's codes; `count` 0 gives the lock back. */
export const pollCodeSms = (app: string, number: string, count: number) =>
  call(endpoints.getVerificationCodeSmsList, { app, number, count }, { silent: true });

/** A page of a kept number's codes of one month. */
export const fetchCodeSmsPage = (input: InputOf<typeof endpoints.getCodeSmsList>) =>
  call(endpoints.getCodeSmsList, input);

/** Sends an SMS from a locked number (charged as an SMS). */
export const sendFromCodeNumber = (input: InputOf<typeof endpoints.sendCodeSms>) =>
  call(endpoints.sendCodeSms, input, { silent: true });
