import { z } from 'zod';
import { Email, Empty, NationalNumber, TelCode } from '../common';
import { defineEndpoint } from '../endpoint';

/*
 * Verifying a phone or an e-mail for the signed-in account (spec 000 §2 verify modal, §7).
 * Flow: getVerifyCode / requestToVerifyEmail (through confirmCaptcha with nextApi when the server
 * asks for a captcha: 100010) → verifyid; validateCode / validateCodeForEmail with the code; then
 * setPhoneForAccount / updatePhone / setEmailForAccount / updateEmail.
 *
 * Decided (spec: the set/update calls take "telcode and phone, or email" only): they also take the
 * `verifyid` of the validated code, so the server can tell the address was proven by this account
 * in the last minutes. `set…` is for an account without that address, `update…` replaces one.
 * The parameter is spelled `telcode` here, as the spec spells it for these calls.
 */

/** The id of one verification (a code sent to one address). */
export const VerifyId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Invalid verifyid');

const CodeSent = z.object({
  verifyid: VerifyId,
  /** Digits in the code: 4 by phone, 6 by e-mail. */
  codeLength: z.union([z.literal(4), z.literal(6)]),
  /** Seconds until a resend is allowed. */
  resendAfter: z.number().int(),
  /** Seconds the code stays valid. */
  expiresIn: z.number().int(),
});

/** The account's addresses after a change; the client then refreshes account, profile and balance. */
export const AccountAddress = z.object({ telCode: z.string(), phone: z.string(), email: z.string() });
export type AccountAddress = z.infer<typeof AccountAddress>;

const PhoneInput = { telcode: TelCode, phone: NationalNumber };

export const getVerifyCode = defineEndpoint({
  name: 'getVerifyCode',
  method: 'GET',
  path: '/web/getVerifyCode',
  access: 'session',
  summary: 'Text a 4-digit code to a phone to verify it for the account.',
  input: z.strictObject(PhoneInput),
  output: CodeSent,
});

export const requestToVerifyEmail = defineEndpoint({
  name: 'requestToVerifyEmail',
  method: 'POST',
  path: '/web/requestToVerifyEmail',
  access: 'session',
  summary: 'Mail a 6-digit code to an address to verify it for the account.',
  input: z.strictObject({ email: Email }),
  output: CodeSent,
});

/** Decided result (spec: not shown): nothing; a wrong code is 100004, a dead one 100006. */
export const validateCode = defineEndpoint({
  name: 'validateCode',
  method: 'POST',
  path: '/web/validateCode',
  access: 'session',
  summary: 'Check the 4-digit code texted for a phone verification.',
  input: z.strictObject({
    verifyid: VerifyId,
    activationcode: z
      .string()
      .trim()
      .regex(/^\d{4}$/, 'The code is 4 digits'),
  }),
  output: Empty,
});

/** Decided result (spec: not shown): nothing; a wrong code is 100004, a dead one 100006. */
export const validateCodeForEmail = defineEndpoint({
  name: 'validateCodeForEmail',
  method: 'POST',
  path: '/web/validateCodeForEmail',
  access: 'session',
  summary: 'Check the 6-digit code mailed for an e-mail verification.',
  input: z.strictObject({
    verifyid: VerifyId,
    activationcode: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'The code is 6 digits'),
  }),
  output: Empty,
});

/** Decided result (spec: not shown): the account's addresses after the change. */
export const setPhoneForAccount = defineEndpoint({
  name: 'setPhoneForAccount',
  method: 'POST',
  path: '/web/setPhoneForAccount',
  access: 'session',
  summary: 'Give an account without a phone the phone just verified (may unlock the redeem-code bonus).',
  input: z.strictObject({ ...PhoneInput, verifyid: VerifyId }),
  output: AccountAddress,
});

/** Decided result (spec: not shown): the account's addresses after the change. */
export const updatePhone = defineEndpoint({
  name: 'updatePhone',
  method: 'POST',
  path: '/web/updatePhone',
  access: 'session',
  summary: "Replace the account's phone with the phone just verified.",
  input: z.strictObject({ ...PhoneInput, verifyid: VerifyId }),
  output: AccountAddress,
});

/** Decided result (spec: not shown): the account's addresses after the change. */
export const setEmailForAccount = defineEndpoint({
  name: 'setEmailForAccount',
  method: 'POST',
  path: '/web/setEmailForAccount',
  access: 'session',
  summary: 'Give an account without an e-mail the address just verified.',
  input: z.strictObject({ email: Email, verifyid: VerifyId }),
  output: AccountAddress,
});

/** Decided result (spec: not shown): the account's addresses after the change. */
export const updateEmail = defineEndpoint({
  name: 'updateEmail',
  method: 'POST',
  path: '/web/updateEmail',
  access: 'session',
  summary: "Replace the account's e-mail with the address just verified.",
  input: z.strictObject({ email: Email, verifyid: VerifyId }),
  output: AccountAddress,
});
