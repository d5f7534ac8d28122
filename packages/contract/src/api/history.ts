import { z } from 'zod';
import {
  Cursor,
  Direction,
  EntityId,
  EpochMs,
  IsoDate,
  Money,
  YearMonth,
  qPageNo,
  qPageSize,
} from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';
import { MessageType } from './chats';

/*
 * Histories (spec 001 §2 History pages, §3, §7). Every list is one UTC month: `date` or `ym` is
 * YYYY-MM and required (the client always sends the open tab's month). Lists are newest first.
 * Page-numbered lists return `totalRows` for the month; cursor lists return `nextPage` (null = end).
 */

const BillTypeCode = z.literal(Object.values(constants.billTypes));
const SubscriptionHistoryType = z.literal(Object.values(constants.rentals.historyTypes));

export const PurchaseMethod = z.enum(constants.purchaseMethods);
export type PurchaseMethod = z.infer<typeof PurchaseMethod>;

/**
 * A payment-history item (spec 001 §3). `date` is when the payment was confirmed (confirmDate);
 * `amount` is what was paid and `gifts` the bonus credited with it, both in the brand's unit.
 * Ours (issue 18): `refunded`, the part of `amount` refunded to the payer so far (absent when none);
 * `dispute`, where the payer's dispute (chargeback) of it stands: open (the money is taken back while
 * it lasts), won (it came back), lost (absent when never disputed).
 */
export const PaymentHistoryItem = z.object({
  _id: EntityId,
  method: PurchaseMethod,
  amount: Money,
  gifts: Money,
  date: EpochMs,
  refunded: Money.optional(),
  dispute: z.enum(['open', 'won', 'lost']).optional(),
});
export type PaymentHistoryItem = z.infer<typeof PaymentHistoryItem>;

export const getPaymentList = defineEndpoint({
  name: 'getPaymentList',
  method: 'GET',
  path: '/web/getPaymentList',
  access: 'session',
  summary: "The month's confirmed top-ups (payment history).",
  input: z.strictObject({
    pageSize: qPageSize(constants.pageSize.payment),
    pageNo: qPageNo,
    date: YearMonth,
  }),
  output: z.object({ totalRows: z.number().int().nonnegative(), paymentList: z.array(PaymentHistoryItem) }),
});

/**
 * Bill options (spec 001 §3): what the bill is about; which keys appear depends on the type.
 * recharge, and the top-up's refund, chargeback and their reversals (11–14): amount, gift,
 * purchaseMethod, orderId; sms / mms: direction, from, to, type, count,
 * successCount, countryCode; call: direction, from, to, duration (s); numberRent: number, days, type;
 * codeReceive: number, countryCode; invite / redeem bonus: campaignName; simOrPlanOrder: orderId,
 * cardType, validityType, planCount, days.
 */
export const BillOptions = z.object({
  amount: Money.optional(),
  gift: Money.optional(),
  purchaseMethod: z.string().optional(),
  campaignName: z.string().optional(),
  direction: Direction.optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  type: z.union([z.string(), z.number()]).optional(),
  duration: z.number().int().nonnegative().optional(),
  count: z.number().int().nonnegative().optional(),
  successCount: z.number().int().nonnegative().optional(),
  countryCode: z.string().optional(),
  number: z.string().optional(),
  days: z.number().int().nonnegative().optional(),
  orderId: z.string().optional(),
  cardType: z.literal(Object.values(constants.cardTypes)).optional(),
  validityType: z.literal(Object.values(constants.validityTypes)).optional(),
  planCount: z.number().int().nonnegative().optional(),
});
export type BillOptions = z.infer<typeof BillOptions>;

// The parts of BillOptions each bill type writes (picked from it, so a key has one type), with the
// keys its writers always set required.
const topUpMoney = BillOptions.pick({
  amount: true,
  gift: true,
  purchaseMethod: true,
  orderId: true,
}).required();
const message = BillOptions.pick({
  direction: true,
  from: true,
  to: true,
  type: true,
  count: true,
  successCount: true,
  countryCode: true,
}).required({ direction: true, from: true, to: true, type: true, count: true });
const bonus = BillOptions.pick({ amount: true, purchaseMethod: true, campaignName: true }).required({
  amount: true,
  purchaseMethod: true,
});

/**
 * The options of each bill type (spec 001 §3), one shape per type, each a part of `BillOptions` (the
 * one list of keys the client reads): every ledger writer on the server is typed by these. A refund
 * (8) gives back an SMS (its message's options, successCount 0) or a verification code (its number);
 * a number's rent is a rented number's (type, validityType) or a kept verification number's
 * (countryCode, days).
 */
export const billOptionsByType = {
  recharge: topUpMoney,
  sms: message,
  mms: message,
  call: BillOptions.pick({ direction: true, from: true, to: true, type: true, duration: true }).required(),
  numberRent: BillOptions.pick({
    number: true,
    type: true,
    validityType: true,
    countryCode: true,
    days: true,
  }).required({ number: true }),
  codeReceive: BillOptions.pick({ number: true, countryCode: true }).required(),
  inviteBonus: bonus,
  refund: message.partial().extend({ number: BillOptions.shape.number }),
  adjustment: BillOptions.pick({ campaignName: true }),
  redeemBonus: bonus,
  topUpRefund: topUpMoney,
  chargeback: topUpMoney,
  chargebackReversed: topUpMoney,
  refundReversed: topUpMoney,
  simOrPlanOrder: BillOptions.pick({
    orderId: true,
    cardType: true,
    validityType: true,
    planCount: true,
    days: true,
  }).required(),
} as const satisfies Record<keyof typeof constants.billTypes, z.ZodType>;
export type BillOptionsOf<K extends keyof typeof constants.billTypes> = z.infer<
  (typeof billOptionsByType)[K]
>;

/**
 * A bill: one ledger row (spec 001 §3). Decided: `charge` is the signed balance change
 * (afterBalance − beforeBalance): negative for spending, positive for credit; `date` is createTime.
 */
export const BillItem = z.object({
  _id: EntityId,
  type: BillTypeCode,
  charge: Money,
  beforeBalance: Money,
  afterBalance: Money,
  date: EpochMs,
  options: BillOptions,
});
export type BillItem = z.infer<typeof BillItem>;

export const getBillList = defineEndpoint({
  name: 'getBillList',
  method: 'GET',
  path: '/web/getBillList',
  access: 'session',
  summary: "A page of the month's bills (every balance change), newest first, endless scroll by cursor.",
  input: z.strictObject({
    pageSize: qPageSize(constants.pageSize.bill),
    nextPage: Cursor.optional(),
    ym: YearMonth,
  }),
  output: z.object({ list: z.array(BillItem), nextPage: Cursor.nullable() }),
});

/**
 * An SMS record (spec 001 §3). `_id` is ours (a stable list key); `charge` is what the message cost
 * (≥ 0); numbers are full numbers or sender ids.
 */
export const SmsRecord = z.object({
  _id: EntityId,
  direction: Direction,
  toNumber: z.string(),
  fromNumber: z.string(),
  date: EpochMs,
  charge: Money,
  type: MessageType,
  text: z.string(),
});
export type SmsRecord = z.infer<typeof SmsRecord>;

export const getNormalSmsList = defineEndpoint({
  name: 'getNormalSmsList',
  method: 'GET',
  path: '/web/getNormalSmsList',
  access: 'session',
  summary: "A page of the month's SMS and MMS history with charges.",
  input: z.strictObject({
    pageSize: qPageSize(constants.pageSize.sms),
    pageNo: qPageNo,
    date: YearMonth,
  }),
  output: z.object({ totalRows: z.number().int().nonnegative(), smsList: z.array(SmsRecord) }),
});

export const CallType = z.enum(constants.callTypes);

/**
 * A call record (spec 001 §3). Both namings the spec shows are sent: `duration` and
 * `billingDuration` in seconds (shown in minutes, rounded up), `fromNumber` = `srcNum`, `toNumber` =
 * `destNum`. `tariffId` 114, 116 and 200 have named lines (constants.tariffIds); `line` is that name
 * (or '' for others). `_id` is ours (a stable list key).
 */
export const CallRecord = z.object({
  _id: EntityId,
  direction: Direction,
  toNumber: z.string(),
  fromNumber: z.string(),
  destNum: z.string(),
  srcNum: z.string(),
  duration: z.number().int().nonnegative(),
  billingDuration: z.number().int().nonnegative(),
  line: z.string(),
  tariffId: z.number().int(),
  charge: Money,
  date: EpochMs,
  type: CallType,
});
export type CallRecord = z.infer<typeof CallRecord>;

export const getCallList = defineEndpoint({
  name: 'getCallList',
  method: 'GET',
  path: '/web/getCallList',
  access: 'session',
  summary: "A page of the month's call history with charges.",
  input: z.strictObject({
    pageSize: qPageSize(constants.pageSize.call),
    pageNo: qPageNo,
    date: YearMonth,
  }),
  output: z.object({ totalRows: z.number().int().nonnegative(), callList: z.array(CallRecord) }),
});

/**
 * A subscription-history entry (spec 001 §3): number rentals. `charge` is signed (negative = paid,
 * positive = refunded). Decided: `resDate` (ISO date) is the last day an expired number (type 100)
 * may still be re-subscribed, '' otherwise; `planId` is null when the entry has no plan. Re-subscribe
 * is offered on type 100 entries with a planId (reSubVirtualPhone with historyId and date).
 */
export const SubscriptionHistoryEntry = z.object({
  _id: EntityId,
  number: z.string(),
  type: SubscriptionHistoryType,
  date: EpochMs,
  charge: Money,
  historyId: EntityId,
  resDate: z.union([z.literal(''), IsoDate]),
  planId: z.number().int().nullable(),
});
export type SubscriptionHistoryEntry = z.infer<typeof SubscriptionHistoryEntry>;

export const getSubscriptionList = defineEndpoint({
  name: 'getSubscriptionList',
  method: 'GET',
  path: '/web/getSubscriptionList',
  access: 'session',
  summary: "A page of the month's number subscription history.",
  input: z.strictObject({
    pageSize: qPageSize(constants.pageSize.subscription),
    pageNo: qPageNo,
    date: YearMonth,
  }),
  output: z.object({ list: z.array(SubscriptionHistoryEntry), totalRows: z.number().int().nonnegative() }),
});
