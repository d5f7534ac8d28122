import en from './locales/en.json' with { type: 'json' };
import zh from './locales/zh.json' with { type: 'json' };
import type { Lang } from './common';

/**
 * Every retcode either spec document names, plus the few the server needs of its own (marked `ours`).
 * `http` is the HTTP status sent with it (DESIGN.md: 400 bad input or business rule, 401 session,
 * 403, 404, 429, 500). `silent`: the client shows no alert for it (spec 000 §8, spec 001 §8); the
 * caller handles it where the user looks. Meanings the documents leave open are decided here.
 */
export const retcodeTable = {
  0: { key: 'ok', http: 200, silent: true, meaning: 'Success.' },
  100000: {
    key: 'internal',
    http: 500,
    silent: true,
    meaning: 'Unexpected server failure; the caller shows its own error state.',
  },
  100001: {
    key: 'invalidParams',
    http: 400,
    silent: false,
    meaning: 'Request parameters fail the contract schema (ours).',
    ours: true,
  },
  100002: {
    key: 'notFound',
    http: 404,
    silent: false,
    meaning: 'No such call or resource (ours).',
    ours: true,
  },
  100003: {
    key: 'forbidden',
    http: 403,
    silent: false,
    meaning: 'The resource belongs to someone else or the brand does not offer it (ours).',
    ours: true,
  },
  100004: {
    key: 'wrongCode',
    http: 400,
    silent: true,
    meaning: 'Wrong verification code; the code boxes are cleared.',
  },
  100005: {
    key: 'payloadTooLarge',
    http: 400,
    silent: false,
    meaning: 'Body or file larger than allowed (ours).',
    ours: true,
  },
  100006: {
    key: 'codeExpired',
    http: 400,
    silent: true,
    meaning: 'Code expired, used, or dead after 5 wrong tries; ask for a new one.',
  },
  100007: {
    key: 'phoneNotSupported',
    http: 400,
    silent: false,
    meaning: 'This phone number cannot receive codes (ours, login catalogue).',
    ours: true,
  },
  100008: {
    key: 'suspended',
    http: 401,
    silent: false,
    meaning: 'Account suspended for suspicious activity: client marks kicked, stays signed in.',
  },
  100009: {
    key: 'invalidEmail',
    http: 400,
    silent: false,
    meaning: 'Malformed e-mail address (ours, login catalogue).',
    ours: true,
  },
  100010: {
    key: 'captchaRequired',
    http: 400,
    silent: true,
    meaning: 'Solve the graphic captcha first: the client opens the captcha modal.',
  },
  100011: {
    key: 'codeSendFailed',
    http: 500,
    silent: false,
    meaning: 'The code could not be delivered (ours, login catalogue).',
    ours: true,
  },
  100012: {
    key: 'tokenInvalid',
    http: 401,
    silent: false,
    meaning: 'Token missing, unknown or revoked: log out, mark kicked.',
  },
  100013: {
    key: 'tokenExpired',
    http: 401,
    silent: false,
    meaning: 'Token past its lifetime: log out, mark kicked.',
  },
  100014: {
    key: 'signedInElsewhere',
    http: 401,
    silent: false,
    meaning: 'A newer sign-in replaced this session: log out, mark kicked.',
  },
  100015: {
    key: 'tooFrequent',
    http: 429,
    silent: true,
    meaning: 'Rate limited; the caller shows it in place.',
  },
  100016: {
    key: 'platformMismatch',
    http: 400,
    silent: false,
    meaning: "The body's platform is not this host's brand (ours).",
    ours: true,
  },
  100017: {
    key: 'phoneInUse',
    http: 400,
    silent: false,
    meaning: 'Phone already used by another account of the brand (ours).',
    ours: true,
  },
  100018: {
    key: 'emailInUse',
    http: 400,
    silent: false,
    meaning: 'E-mail already used by another account of the brand (ours).',
    ours: true,
  },
  100019: {
    key: 'desktopRequired',
    http: 403,
    silent: false,
    meaning: 'Desktop browser required (ours, spec text).',
    ours: true,
  },
  100020: {
    key: 'wrongCaptcha',
    http: 400,
    silent: true,
    meaning: 'Wrong captcha answer: a fresh captcha is drawn.',
  },
  100021: {
    key: 'captchaLocked',
    http: 429,
    silent: false,
    meaning: 'Too many wrong captcha answers (ours, spec 001 §8 text).',
    ours: true,
  },
  100023: {
    key: 'profileRequired',
    http: 400,
    silent: true,
    meaning: 'Billing profile or phone missing; data carries profileStatus and needSetPhone.',
  },
  100025: {
    key: 'phoneUpdateRequired',
    http: 400,
    silent: true,
    meaning: 'Phone must be updated: the client opens the verify modal in update mode.',
  },
  100028: {
    key: 'cloudCaptchaRequired',
    http: 400,
    silent: true,
    meaning: 'Reload the captcha and retry the verify-code call through it.',
  },
  100029: {
    key: 'proofOfWorkRequired',
    http: 400,
    silent: true,
    meaning:
      'A code send came without a solved, fresh, unused proof-of-work challenge (ours, issue 9): the captcha draws again.',
    ours: true,
  },
  100030: {
    key: 'codeMaxRetries',
    http: 429,
    silent: false,
    meaning:
      'Too many wrong codes for this phone or e-mail today (ours, the login catalogue\'s "max retries"; issue 9): no code is checked or sent for it until the day window passes.',
    ours: true,
  },
  100031: {
    key: 'emailUnavailable',
    http: 400,
    silent: false,
    meaning:
      'No mail provider on this deployment (MAIL=none, issue 18): no code is sent to an e-mail address, for sign-in or for proving one; the caller uses a phone number. Told before any captcha.',
    ours: true,
  },
  200018: { key: 'accountDeleted', http: 401, silent: false, meaning: 'Account deleted: log out.' },
  200025: {
    key: 'rechargeAmountNotAllowed',
    http: 400,
    silent: true,
    meaning: 'Recharge amount not allowed for this method (payment submit error).',
  },
  200040: {
    key: 'rechargeMaxAttempts',
    http: 429,
    silent: true,
    meaning: 'Maximum recharge attempts reached today.',
  },
  200041: {
    key: 'rechargeUnavailable',
    http: 400,
    silent: true,
    meaning: 'Recharge temporarily unavailable.',
  },
  200042: { key: 'orderFailed', http: 400, silent: true, meaning: 'Order submission failed.' },
  200043: {
    key: 'paymentNeedsPhone',
    http: 400,
    silent: true,
    meaning: 'This payment method needs a verified phone.',
  },
  200044: {
    key: 'paymentMethodUnavailable',
    http: 400,
    silent: true,
    meaning: 'Payment method not offered on this brand.',
  },
  200045: {
    key: 'cryptoRateUnavailable',
    http: 400,
    silent: true,
    meaning: 'Crypto exchange rate unavailable.',
  },
  200046: { key: 'paymentNotFound', http: 400, silent: true, meaning: 'No such payment order.' },
  200047: {
    key: 'paymentClosed',
    http: 400,
    silent: true,
    meaning: 'The payment order is already finished or cancelled.',
  },
  300002: {
    key: 'numberUnavailable',
    http: 400,
    silent: true,
    meaning: 'No number available for this area; error state.',
  },
  300030: {
    key: 'tollFreeRegistration',
    http: 400,
    silent: true,
    meaning: 'Toll-free registration needed; shown in the toll-free prompt.',
  },
  300031: {
    key: 'cannotSendTo',
    http: 400,
    silent: false,
    meaning: 'Cannot send to this number (ours, spec text).',
    ours: true,
  },
  300032: {
    key: 'cannotUseNumber',
    http: 400,
    silent: false,
    meaning: 'Cannot use this number to send (ours, spec text).',
    ours: true,
  },
  300033: { key: 'numberExpired', http: 400, silent: true, meaning: 'Cannot restore an expired number.' },
  300034: {
    key: 'mmsFromCanada',
    http: 400,
    silent: false,
    meaning: 'MMS from a Canadian number is unavailable (ours, spec text).',
    ours: true,
  },
  300035: {
    key: 'mmsFromUk',
    http: 400,
    silent: false,
    meaning: 'MMS from a UK number is unavailable (ours, spec text).',
    ours: true,
  },
  300036: {
    key: 'messageFailed',
    http: 400,
    silent: false,
    meaning: 'The message could not be sent (ours, spec text).',
    ours: true,
  },
  300037: {
    key: 'tollFreeNotSupported',
    http: 400,
    silent: false,
    meaning: 'Toll-free numbers are not supported (ours, spec text).',
    ours: true,
  },
  300038: {
    key: 'mediaUnsupported',
    http: 400,
    silent: false,
    meaning: 'File type not accepted (ours).',
    ours: true,
  },
  400000: {
    key: 'operationFailed',
    http: 400,
    silent: true,
    meaning: 'Business rule refused the call; error state with the message.',
  },
  400001: {
    key: 'insufficientBalance',
    http: 400,
    silent: true,
    meaning: 'Balance too low: no-credit state with the message.',
  },
  500000: {
    key: 'noNumberAvailable',
    http: 400,
    silent: true,
    meaning: 'No number available (locking a code number).',
  },
  600000: {
    key: 'sttUnavailable',
    http: 400,
    silent: true,
    meaning: 'Speech-to-text temporarily unavailable.',
  },
  600002: {
    key: 'sttFailed',
    http: 400,
    silent: true,
    meaning: 'Speech-to-text could not transcribe this media.',
  },
} as const satisfies Record<
  number,
  { key: string; http: number; silent: boolean; meaning: string; ours?: true }
>;

export type Retcode = keyof typeof retcodeTable;
export type RetcodeKey = (typeof retcodeTable)[Retcode]['key'];

/** Retcodes by name: `R.tokenInvalid === 100012`. */
export const R = Object.fromEntries(
  Object.entries(retcodeTable).map(([code, v]) => [v.key, Number(code)]),
) as { [K in Retcode as (typeof retcodeTable)[K]['key']]: K };

export const isRetcode = (code: number): code is Retcode => code in retcodeTable;

/**
 * The retmsg of a code in a language. The catalogues are read inside the function, so a bundle that
 * never calls it (the web client, which has its own i18n texts) leaves zh.json out of its chunks.
 */
export function retmsg(code: number, lang: Lang): string {
  const texts: Record<string, string> = (lang === 'zh' ? zh : en).retcode;
  const fallback: Record<string, string> = en.retcode;
  return texts[String(code)] ?? fallback[String(code)] ?? texts['100000'] ?? '';
}

export function httpStatusOf(code: number): number {
  return isRetcode(code) ? retcodeTable[code].http : 500;
}

/** Spec 000 §8 / 001 §8 silent list (and success). */
export function isSilent(code: number): boolean {
  return isRetcode(code) ? retcodeTable[code].silent : false;
}

/** Session codes (spec 000 §4): what the client does for each. */
export const sessionCodes = {
  100008: 'markKicked',
  100012: 'logout',
  100013: 'logout',
  100014: 'logout',
  200018: 'logout',
} as const satisfies Partial<Record<Retcode, 'markKicked' | 'logout'>>;
export const isSessionCode = (code: number): code is keyof typeof sessionCodes => code in sessionCodes;
