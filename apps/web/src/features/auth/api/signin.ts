import { type InputOf } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';

/**
 * Asks for a sign-in code for an address (preLogin). Without a captcha the server never sends: it
 * answers the resend wait still running (100015) or asks for the captcha (100010); with the captcha's
 * answer and proof of work it sends and tells the code's length and the resend wait.
 */
export const requestSignInCode = (input: InputOf<typeof endpoints.preLogin>) =>
  call(endpoints.preLogin, input, { silent: true });

/** Signs in with the code: the session's token and its invite flags. */
export const signInWithCode = (input: InputOf<typeof endpoints.login>) =>
  call(endpoints.login, input, { silent: true });
