import { z } from 'zod';
import {
  CountryCode,
  Cursor,
  Empty,
  EntityId,
  EpochMs,
  FullNumber,
  IsoDate,
  Money,
  YearMonth,
  qFlag,
  qIntIn,
  qPageSize,
} from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';
import { SmsId } from './chats';
import { SubscriptionResult } from './numbers';

/*
 * Receiving verification codes (spec 001 §2 Chinese verification page and new-code page, §4
 * Receive-code flow, §7). Trade norm (DESIGN.md): a number is locked for the polling window
 * (constants.codes.lockMs), a code is charged only when it arrives, nothing when none arrives. A
 * number lasts constants.codes.numberValidityDays from its first use unless subscribed.
 * `code` is always a country code (ISO alpha-2, e.g. US); `app` a service id from getAppList.
 */

/** A service id (e.g. `whatsapp`). */
export const AppId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Invalid app');

const SubStatus = z.literal(Object.values(constants.codes.subStatus));
/** Phone-option numberType (spec 001 §3): 1 may be subscribed, 2 no subscribe button. */
export const CodeNumberType = z.literal(Object.values(constants.codes.numberTypes));

/** An app (service) codes can be received for (spec 001 §3). Lower `sort` first. */
export const App = z.object({ app: AppId, name: z.string(), sort: z.number().int() });
export type App = z.infer<typeof App>;

/** A country codes can be received in (spec 001 §3); `show` false hides it from the select. */
export const Country = z.object({
  code: CountryCode,
  name: z.string(),
  telCode: z.string().regex(/^\d{1,4}$/),
  show: z.boolean(),
});
export type Country = z.infer<typeof Country>;

export const getAppList = defineEndpoint({
  name: 'getAppList',
  method: 'GET',
  path: '/web/getAppList',
  access: 'optional',
  summary: 'The services and countries codes can be received for (the applist front page too).',
  input: Empty,
  output: z.object({ appList: z.array(App), countrys: z.array(Country) }),
});

/**
 * A number offered for an app and country (spec 001 §3). `phone` is a full number (digits).
 * `canGetNumber` false: in use or not offered now. Decided: `tip` is a short line shown under the
 * option ('' for none).
 */
export const PhoneOption = z.object({
  phone: FullNumber,
  subStatus: SubStatus,
  telCode: z.string(),
  tip: z.string(),
  canGetNumber: z.boolean(),
  numberType: CodeNumberType,
});
export type PhoneOption = z.infer<typeof PhoneOption>;

const AppAndCountry = z.strictObject({ app: AppId, code: CountryCode });

export const getVerificationCodePhoneListV2 = defineEndpoint({
  name: 'getVerificationCodePhoneListV2',
  method: 'GET',
  path: '/web/getVerificationCodePhoneListV2',
  access: 'session',
  summary: "Numbers to receive an app's codes in a country, including the account's own ones.",
  input: AppAndCountry,
  output: z.object({ numbers: z.array(PhoneOption) }),
});

/**
 * The front page's number list (spec 001 §4: anonymous users use "a different call"; named here).
 * Same shape, without anything account-specific (subStatus is always 0).
 */
export const getVerificationCodePhoneListAnonymous = defineEndpoint({
  name: 'getVerificationCodePhoneListAnonymous',
  method: 'GET',
  path: '/web/getVerificationCodePhoneListAnonymous',
  access: 'public',
  summary: "Numbers to receive an app's codes in a country, for anonymous visitors of the front page.",
  input: AppAndCountry,
  output: z.object({ numbers: z.array(PhoneOption) }),
});

/** Decided: `fee` is the price of one received code, `subRent` the monthly rent of keeping a number. */
export const getCodeNumberFeeByAppV2 = defineEndpoint({
  name: 'getCodeNumberFeeByAppV2',
  method: 'GET',
  path: '/web/getCodeNumberFeeByAppV2',
  access: 'session',
  summary: 'What a received code costs for an app and country.',
  input: AppAndCountry,
  output: z.object({ fee: Money, subRent: Money }),
});

/**
 * A locked number (spec 001 §3). `canSub` 1 allows subscribing; `canSendCodeSms` allows the send
 * toggle. Decided: `telCodeList` are the calling codes it may send to; `expireTime` (epoch ms) is the
 * end of the lock.
 */
export const LockedPhone = z.object({
  phone: FullNumber,
  formatPhone: z.string(),
  app: AppId,
  telCode: z.string(),
  telCodeList: z.array(z.string()),
  tip: z.string(),
  subTip: z.string(),
  subRent: Money,
  codeRate: Money,
  canSub: z.union([z.literal(0), z.literal(1)]),
  subStatus: SubStatus,
  canSendCodeSms: z.boolean(),
  expireTime: EpochMs,
});
export type LockedPhone = z.infer<typeof LockedPhone>;

/**
 * Lock a number for the polling window. Decided: without `number` the server picks a fresh one (the
 * client's 'Get a New Number' choice); `lastApp`/`lastNumber` name the lock being replaced ('try
 * another number'), which is released; `needLog` 1 (default) records the number among the account's
 * recent ones. The balance must cover one code (400001 otherwise: the insufficient-balance dialog);
 * an account holds at most constants.codes.maxLiveLocks live locks. 500000 (HTTP 400) when no number is
 * available. 100023 when the billing profile was refused by review (status 100): locking needs no
 * profile otherwise, as is the norm for a pay-per-code service; keeping a number (subscribing) needs
 * a verified one.
 */
export const lockVerificationCodePhone = defineEndpoint({
  name: 'lockVerificationCodePhone',
  method: 'GET',
  path: '/web/lockVerificationCodePhone',
  access: 'session',
  summary: 'Lock a number (a given one or a fresh one) to receive one app code.',
  input: z.strictObject({
    app: AppId,
    code: CountryCode,
    number: FullNumber.optional(),
    needLog: qFlag.default(1),
    lastApp: AppId.optional(),
    lastNumber: FullNumber.optional(),
    numberType: qIntIn(1, 2).pipe(CodeNumberType).default(1),
  }),
  output: LockedPhone,
});

/**
 * A received code SMS (spec 001 §3): its text, date, what it cost and its id. Decided: `code` is the
 * code read from the text ('' when none was found), shown highlighted with a copy button. A code the
 * balance could not pay when it arrived has `charge` 0 and its text and code withheld ('' both).
 */
export const SmsItem = z.object({
  text: z.string(),
  date: EpochMs,
  charge: Money,
  smsId: SmsId,
  code: z.string(),
});
export type SmsItem = z.infer<typeof SmsItem>;

/**
 * One poll of a locked number. Decided: `count` is the client's poll counter (180 down to 0); at 0 the
 * server ends the lock. Returns the SMS received since the lock, newest first.
 */
export const getVerificationCodeSmsList = defineEndpoint({
  name: 'getVerificationCodeSmsList',
  method: 'GET',
  path: '/web/getVerificationCodeSmsList',
  access: 'session',
  summary: 'Poll a locked number for the codes it received (charged on arrival).',
  input: z.strictObject({
    app: AppId,
    number: FullNumber,
    count: qIntIn(0, constants.codes.pollCounter),
  }),
  output: z.object({ smsList: z.array(SmsItem) }),
});

export const getAppListByAccount = defineEndpoint({
  name: 'getAppListByAccount',
  method: 'GET',
  path: '/web/getAppListByAccount',
  access: 'session',
  summary: "The apps the account has received codes for (the 'recently used' tab).",
  input: Empty,
  output: z.object({ appList: z.array(App) }),
});

/**
 * A verification number of the account (spec 001 §3 "Verification number (management)" and "Old
 * number", one shape). Decided: `phone` is the full number, `oldPhone` its national part as it was
 * shown; `code` the country (ISO); `name` the app's name; `nextPaymentDate` (ISO) the next charge when
 * subscribed, otherwise the end of validity; `monthRent` what the subscription costs now, `subRent`
 * its list price, `codeRate` the price of a code.
 */
export const VerificationNumber = z.object({
  phone: FullNumber,
  oldPhone: z.string(),
  app: AppId,
  name: z.string(),
  code: CountryCode,
  subStatus: SubStatus,
  nextPaymentDate: IsoDate,
  monthRent: Money,
  subRent: Money,
  codeRate: Money,
});
export type VerificationNumber = z.infer<typeof VerificationNumber>;
/** The recent-number view of a verification number. */
export const OldNumber = VerificationNumber;
export type OldNumber = VerificationNumber;

/** Decided: without `app`, every verification number of the account (number management). */
export const getCodeNumberListByAccount = defineEndpoint({
  name: 'getCodeNumberListByAccount',
  method: 'GET',
  path: '/web/getCodeNumberListByAccount',
  access: 'session',
  summary: "The account's verification numbers, for one app or all.",
  input: z.strictObject({ app: AppId.optional() }),
  output: z.object({ numbers: z.array(VerificationNumber) }),
});

const AppAndNumber = z.strictObject({ app: AppId, number: FullNumber });

export const subVerificationCodePhone = defineEndpoint({
  name: 'subVerificationCodePhone',
  method: 'GET',
  path: '/web/subVerificationCodePhone',
  access: 'session',
  summary: 'Keep a verification number by subscribing monthly (first month charged at once).',
  input: AppAndNumber,
  output: SubscriptionResult,
});

/** Decided: the number stays usable until its nextPaymentDate, then lapses; nothing is refunded. */
export const unSubVerificationCodePhone = defineEndpoint({
  name: 'unSubVerificationCodePhone',
  method: 'GET',
  path: '/web/unSubVerificationCodePhone',
  access: 'session',
  summary: 'Stop the monthly subscription of a verification number.',
  input: AppAndNumber,
  output: Empty,
});

/** Re-subscribe from a verification-history entry of type 100; `date` is the entry's date. */
export const reSubVerificationCodePhone = defineEndpoint({
  name: 'reSubVerificationCodePhone',
  method: 'POST',
  path: '/web/reSubVerificationCodePhone',
  access: 'session',
  summary: 'Restore a lapsed verification number from its history entry.',
  input: z.strictObject({ historyId: EntityId, date: EpochMs }),
  output: SubscriptionResult,
});

/**
 * A verification-history entry (spec 001 §3). `charge` signed like bills; `resDate` (ISO) the last day
 * a lapsed number may be restored ('' otherwise); `nextPaymentDate` (ISO, '' when none) makes the
 * re-subscribe button show on type 100.
 */
export const VerificationHistoryEntry = z.object({
  _id: EntityId,
  number: z.string(),
  name: z.string(),
  type: z.literal(Object.values(constants.codes.historyTypes)),
  date: EpochMs,
  charge: Money,
  historyId: EntityId,
  resDate: z.union([z.literal(''), IsoDate]),
  nextPaymentDate: z.union([z.literal(''), IsoDate]),
});
export type VerificationHistoryEntry = z.infer<typeof VerificationHistoryEntry>;

export const getSubCodeNumberList = defineEndpoint({
  name: 'getSubCodeNumberList',
  method: 'GET',
  path: '/web/getSubCodeNumberList',
  access: 'session',
  summary: "A page of the month's verification-number history (subscriptions, renewals, lapses).",
  input: z.strictObject({
    pageSize: qPageSize(constants.pageSize.subscribedNumbers),
    nextPage: Cursor.optional(),
    ym: YearMonth,
  }),
  output: z.object({ list: z.array(VerificationHistoryEntry), nextPage: Cursor.nullable() }),
});

/**
 * The code SMS a number received for an app in one UTC month, newest first (spec 001 §4: 20 per page,
 * 'see more' steps back a month). `nextPage` continues the same month; null when it is exhausted.
 */
export const getCodeSmsList = defineEndpoint({
  name: 'getCodeSmsList',
  method: 'GET',
  path: '/web/getCodeSmsList',
  access: 'session',
  summary: 'A page of the code SMS a verification number received in a month.',
  input: z.strictObject({
    app: AppId,
    number: FullNumber,
    pageSize: qPageSize(constants.pageSize.codeSms),
    ym: YearMonth,
    nextPage: Cursor.optional(),
  }),
  output: z.object({ smsList: z.array(SmsItem), nextPage: Cursor.nullable() }),
});

/**
 * Send an SMS from a verification number (spec 001 §2 send toggle), when the locked number allows
 * it. Decided result (spec: none): the message id and date.
 */
export const sendCodeSms = defineEndpoint({
  name: 'sendCodeSms',
  method: 'POST',
  path: '/web/sendCodeSms',
  access: 'session',
  summary: 'Send a text from a locked or subscribed verification number (charged like an SMS).',
  input: z.strictObject({
    from: FullNumber,
    to: z
      .string()
      .trim()
      .transform((v) => v.replace(/\+/g, ''))
      .pipe(FullNumber),
    app: AppId,
    text: z.string().trim().min(1).max(constants.smsTextMax),
  }),
  output: z.object({ smsId: SmsId, date: EpochMs }),
});
