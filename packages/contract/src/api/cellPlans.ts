import { z } from 'zod';
import { Email, EntityId, EpochMs, Money, qPageNo, qPageSize } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/*
 * The embedded plans page (spec 001 §2 "Embedded plans page"; issue 11 item 7): US cell phone plans
 * a user orders from the balance, the lines (SIM or eSIM) they hold, and their orders. The spec names
 * no calls for it (the page is ours): these are decided here. Every call needs the session (the page
 * sends the access token it was given in its query as `auth-token`).
 *
 * Decided:
 * - an order is one bill of type 50 (SIM or plan order) with options orderId, cardType, validityType,
 *   planCount and days; its price is the plan's rate for the validity × planCount, plus the SIM kit
 *   for a physical SIM;
 * - cardType 1 (eSIM) and 2 (physical SIM) open a new line; 3 (plan only) adds the time to a line the
 *   account holds (`lineId`); the time is planCount × the validity's days, from the end of the line's
 *   paid time (or from now when it has ended);
 * - ordering needs a verified account phone (the line's contact): otherwise 100025, and the page asks
 *   the host to open the phone verify flow;
 * - `requestId` (chosen by the page per order attempt) makes the order idempotent: the same id again
 *   answers the first order and charges nothing more.
 */

/** Days of each validity type (constants.validityTypes: 1 month … 4 year). */
export const cellValidityDays = { 1: 30, 2: 90, 3: 180, 4: 365 } as const;

export const CellValidityType = z.literal(Object.values(constants.validityTypes));
export type CellValidityType = z.infer<typeof CellValidityType>;
export const CellCardType = z.literal(Object.values(constants.cardTypes));
export type CellCardType = z.infer<typeof CellCardType>;
const LineId = z.number().int().positive();

/** A plan and its price per validity, in the brand's unit. */
export const CellPlan = z.object({
  planId: z.number().int().positive(),
  /** starter | plus | unlimited | global: the page names it from its locales */
  code: z.string(),
  /** high-speed data per 30 days; `unlimited`: data goes on at a lower speed after it */
  dataGb: z.number().int().positive(),
  unlimited: z.boolean(),
  hotspotGb: z.number().int().nonnegative(),
  intlCalls: z.boolean(),
  prices: z.array(
    z.object({ validityType: CellValidityType, days: z.number().int().positive(), price: Money }),
  ),
});
export type CellPlan = z.infer<typeof CellPlan>;

/** A line (the page's subscription): one SIM or eSIM with its plan and paid time. */
export const CellLine = z.object({
  lineId: LineId,
  label: z.string(),
  planId: z.number().int().positive(),
  code: z.string(),
  cardType: CellCardType,
  startDate: EpochMs,
  endDate: EpochMs,
  status: z.enum(['active', 'expired']),
  orderCount: z.number().int().positive(),
});
export type CellLine = z.infer<typeof CellLine>;

export const CellOrder = z.object({
  orderId: z.string(),
  lineId: LineId,
  lineLabel: z.string(),
  planId: z.number().int().positive(),
  code: z.string(),
  cardType: CellCardType,
  validityType: CellValidityType,
  planCount: z.number().int().positive(),
  days: z.number().int().positive(),
  amount: Money,
  contactPhone: z.string(),
  contactEmail: z.string().nullable(),
  periodStart: EpochMs,
  periodEnd: EpochMs,
  date: EpochMs,
});
export type CellOrder = z.infer<typeof CellOrder>;

export const getCellPlanList = defineEndpoint({
  name: 'getCellPlanList',
  method: 'GET',
  path: '/web/cellPlan/getPlanList',
  access: 'session',
  summary:
    'The US cell phone plans with their prices, the SIM kit fee and what an order needs of the account.',
  input: z.strictObject({}),
  output: z.object({
    planList: z.array(CellPlan),
    simKitFee: Money,
    balance: Money,
    /** the account's verified phone (full number, digits) or null: ordering needs one */
    phone: z.string().nullable(),
    email: z.string().nullable(),
  }),
});

export const orderCellPlan = defineEndpoint({
  name: 'orderCellPlan',
  method: 'POST',
  path: '/web/cellPlan/order',
  access: 'session',
  summary: 'Orders a plan (a new eSIM or SIM line, or time on a line held), charged from the balance.',
  input: z.strictObject({
    planId: z.number().int().positive(),
    cardType: CellCardType,
    validityType: CellValidityType,
    planCount: z.number().int().min(1).max(12).default(1),
    lineId: LineId.optional(),
    /** the new line's name (the page sends the plan's name in its language); default the plan code */
    label: z.string().trim().min(1).max(40).optional(),
    email: Email.optional(),
    requestId: EntityId,
  }),
  output: z.object({ order: CellOrder, balance: Money }),
});

export const getCellOrderList = defineEndpoint({
  name: 'getCellOrderList',
  method: 'GET',
  path: '/web/cellPlan/getOrderList',
  access: 'session',
  summary: "The account's cell plan orders, newest first (order history).",
  input: z.strictObject({ pageSize: qPageSize(200, 50), pageNo: qPageNo }),
  output: z.object({ totalRows: z.number().int().nonnegative(), list: z.array(CellOrder) }),
});

export const getCellOrder = defineEndpoint({
  name: 'getCellOrder',
  method: 'GET',
  path: '/web/cellPlan/getOrder',
  access: 'session',
  summary: 'One order of the account (order details); another account’s order is refused.',
  input: z.strictObject({ orderId: EntityId }),
  output: CellOrder,
});

export const getCellSubscriptionList = defineEndpoint({
  name: 'getCellSubscriptionList',
  method: 'GET',
  path: '/web/cellPlan/getSubscriptionList',
  access: 'session',
  summary: "The account's lines, newest first (subscription history).",
  input: z.strictObject({}),
  output: z.object({ list: z.array(CellLine) }),
});

export const updateCellLine = defineEndpoint({
  name: 'updateCellLine',
  method: 'POST',
  path: '/web/cellPlan/updateLine',
  access: 'session',
  summary: 'Renames a line of the account (Edit).',
  input: z.strictObject({ lineId: LineId, label: z.string().trim().min(1).max(40) }),
  output: CellLine,
});
