import { z } from 'zod';
import { Email, Empty, NationalNumber, TelCode } from '../common';
import { defineEndpoint } from '../endpoint';

/** A captcha id: the client makes it from the time and a random string (spec 000 §7). */
export const CaptchaId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Invalid captcha id');
export const CaptchaAnswer = z.string().trim().min(1).max(12);

/** Who a code goes to: an e-mail address, or a country code and a national number. */
const addressShape = {
  email: Email.optional(),
  telCode: TelCode.optional(),
  phone: NationalNumber.optional(),
};
const requireOneAddress = (
  v: { email?: string | undefined; telCode?: string | undefined; phone?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  const byPhone = v.telCode !== undefined || v.phone !== undefined;
  if (v.email !== undefined && byPhone) {
    ctx.addIssue({ code: 'custom', message: 'Give an e-mail address or a phone number, not both' });
  } else if (v.email === undefined && (v.telCode === undefined || v.phone === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'An e-mail address, or telCode and phone, is required' });
  }
};

export const SignInAddress = z.strictObject(addressShape).superRefine(requireOneAddress);
export type SignInAddress = z.infer<typeof SignInAddress>;

/*
 * Decided (issue 9, hole 2): a script read svg-captcha's SVG paths glyph by glyph, so
 * - the captcha is a raster picture (WebP) with distortion and noise: the answer is nowhere in the
 *   answer's text (`image`, a data: URL, replaces the former `svg` markup);
 * - every drawing comes with an ALTCHA proof-of-work challenge (altcha-lib, SHA-256, HMAC-signed by
 *   the server, bound to the captcha id, valid as long as the captcha). The calls that send a code
 *   (preLogin, and confirmCaptcha with nextApi) need it solved: the client works it out in a Web
 *   Worker while the person reads the picture and sends the solution as `pow`. A send without a
 *   solved, fresh, unused challenge is refused with 100029 (the captcha draws again); a challenge
 *   counts once, on every server (spent challenges are kept in the database until they expire).
 * - Order of the checks of a code send: the input (100001, 100007), the resend wait and hourly
 *   limits (100015 with `resendAfter`: told before any captcha, so the client shows the countdown
 *   at once), the captcha's presence (100010), the proof of work (100029), the captcha's answer
 *   (100020 with a fresh drawing), then the send.
 */

/** An ALTCHA challenge (altcha-lib v2 `Challenge`), as the server signed it. */
export const PowChallenge = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string(),
});
export type PowChallenge = z.infer<typeof PowChallenge>;

/**
 * A solved challenge: base64 of the JSON `{ challenge, solution: { counter, derivedKey } }` (the
 * payload format of ALTCHA's own widget).
 */
export const PowPayload = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'Expected a base64 proof-of-work payload');

export const preLogin = defineEndpoint({
  name: 'preLogin',
  method: 'POST',
  path: '/web/preLogin',
  access: 'public',
  summary:
    'Send a sign-in code to an e-mail address (6 digits) or a phone (4 digits). Needs a solved captcha and its proof of work; without them it tells the resend wait (100015) or asks for the captcha (100010).',
  input: z
    .strictObject({
      ...addressShape,
      captchaId: CaptchaId.optional(),
      inputCaptcha: CaptchaAnswer.optional(),
      /** The solved proof of work of the captcha's drawing (see PowChallenge above). */
      pow: PowPayload.optional(),
    })
    .superRefine(requireOneAddress),
  output: z.object({
    /** Digits in the code sent: 4 by phone, 6 by e-mail. */
    codeLength: z.union([z.literal(4), z.literal(6)]),
    /** Seconds until a resend is allowed. */
    resendAfter: z.number().int(),
    /** Seconds the code stays valid. */
    expiresIn: z.number().int(),
  }),
});

export const login = defineEndpoint({
  name: 'login',
  method: 'POST',
  path: '/web/login',
  access: 'public',
  summary: 'Check a sign-in code; creates the account on first sign-in (one per brand and address).',
  input: z
    .strictObject({
      ...addressShape,
      code: z
        .string()
        .trim()
        .regex(/^\d{4,6}$/, 'The code is 4 or 6 digits'),
    })
    .superRefine(requireOneAddress),
  output: z.object({
    token: z.string(),
    canInvite: z.boolean(),
    canSetInviter: z.boolean(),
  }),
});

export const refreshToken = defineEndpoint({
  name: 'refreshToken',
  method: 'GET',
  path: '/web/refreshToken',
  access: 'session',
  summary:
    'Replace the session token with a new one (every 12 h); the old one stops working after a short grace.',
  input: Empty,
  output: z.object({ token: z.string() }),
});

export const logout = defineEndpoint({
  name: 'logout',
  method: 'POST',
  path: '/web/logout',
  access: 'session',
  summary: 'Revoke the current session token (not in the spec: the client only cleared its token).',
  input: Empty,
  output: Empty,
});

/** A captcha drawing: the picture as a data: URL (WebP), its size in CSS pixels, and its proof-of-work challenge. */
export const CaptchaImage = z.object({
  captchaId: CaptchaId,
  image: z.string().regex(/^data:image\/(webp|png);base64,[A-Za-z0-9+/]+={0,2}$/),
  width: z.number().int(),
  height: z.number().int(),
  pow: PowChallenge,
});
export type CaptchaImage = z.infer<typeof CaptchaImage>;

export const captcha = defineEndpoint({
  name: 'captcha',
  method: 'GET',
  path: '/web/captcha',
  access: 'public',
  summary: 'A captcha picture for an id (a new drawing: an old one is never drawn again from its answer).',
  input: z.strictObject({ captchaId: CaptchaId }),
  output: CaptchaImage,
});

export const genCaptcha = defineEndpoint({
  name: 'genCaptcha',
  method: 'GET',
  path: '/web/genCaptcha',
  access: 'public',
  summary:
    'Draw a fresh captcha for an id (a raster picture and its proof-of-work challenge), replacing any earlier one.',
  input: z.strictObject({ captchaId: CaptchaId }),
  output: CaptchaImage,
});

/** The calls a solved captcha may lead to (spec 000 §7). */
export const captchaNextApis = ['/web/requestToVerifyEmail', '/web/getVerifyCode'] as const;

export const confirmCaptcha = defineEndpoint({
  name: 'confirmCaptcha',
  method: 'POST',
  path: '/web/confirmCaptcha',
  access: 'optional',
  summary:
    'Check a captcha answer once. With nextApi, the remaining body fields are that call’s parameters and its result is returned.',
  input: z.looseObject({
    captchaId: CaptchaId,
    inputCaptcha: CaptchaAnswer,
    nextApi: z.enum(captchaNextApis).optional(),
    /** The solved proof of work; needed with `nextApi` (a code send), ignored without. */
    pow: PowPayload.optional(),
  }),
  output: z.looseObject({ verifyid: z.string().optional() }),
});

export const getAccountInfo = defineEndpoint({
  name: 'getAccountInfo',
  method: 'GET',
  path: '/web/getAccountInfo',
  access: 'session',
  summary: 'The signed-in account: telCode, phone, e-mail, status and the invite flags.',
  input: Empty,
  output: z.object({
    /** '' when the account has no phone. */
    telCode: z.string(),
    phone: z.string(),
    email: z.string(),
    /** 1 active (the only status a session can see; suspended and deleted accounts get 100008 / 200018). */
    status: z.number().int(),
    canInvite: z.boolean(),
    canSetInviter: z.boolean(),
  }),
});

export const queryBalance = defineEndpoint({
  name: 'queryBalance',
  method: 'GET',
  path: '/web/queryBalance',
  access: 'session',
  summary: "The account's balance in the brand's unit.",
  input: Empty,
  output: z.object({ balance: z.number() }),
});
