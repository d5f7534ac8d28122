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
const requireOneAddress = (v: { email?: string | undefined; telCode?: string | undefined; phone?: string | undefined }, ctx: z.RefinementCtx) => {
  const byPhone = v.telCode !== undefined || v.phone !== undefined;
  if (v.email !== undefined && byPhone) {
    ctx.addIssue({ code: 'custom', message: 'Give an e-mail address or a phone number, not both' });
  } else if (v.email === undefined && (v.telCode === undefined || v.phone === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'An e-mail address, or telCode and phone, is required' });
  }
};

export const SignInAddress = z.strictObject(addressShape).superRefine(requireOneAddress);
export type SignInAddress = z.infer<typeof SignInAddress>;

export const preLogin = defineEndpoint({
  name: 'preLogin',
  method: 'POST',
  path: '/web/preLogin',
  access: 'public',
  summary: 'Send a sign-in code to an e-mail address (6 digits) or a phone (4 digits). Needs a solved captcha.',
  input: z
    .strictObject({ ...addressShape, captchaId: CaptchaId.optional(), inputCaptcha: CaptchaAnswer.optional() })
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
    .strictObject({ ...addressShape, code: z.string().trim().regex(/^\d{4,6}$/, 'The code is 4 or 6 digits') })
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
  summary: 'Replace the session token with a new one (every 12 h); the old one stops working after a short grace.',
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

const CaptchaImage = z.object({ captchaId: CaptchaId, svg: z.string() });

export const captcha = defineEndpoint({
  name: 'captcha',
  method: 'GET',
  path: '/web/captcha',
  access: 'public',
  summary: 'The captcha image (SVG markup) for an id; draws one if the id has none.',
  input: z.strictObject({ captchaId: CaptchaId }),
  output: CaptchaImage,
});

export const genCaptcha = defineEndpoint({
  name: 'genCaptcha',
  method: 'GET',
  path: '/web/genCaptcha',
  access: 'public',
  summary: 'Draw a fresh captcha for an id (SVG markup), replacing any earlier one.',
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
