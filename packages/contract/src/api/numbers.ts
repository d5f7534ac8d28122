import { z } from 'zod';
import {
  Empty,
  EntityId,
  EpochMs,
  FullNumber,
  IsoDate,
  Money,
  NationalNumber,
  TelCode,
  qFlag,
  qInt,
} from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';
import { ProfileStatus } from './profile';

/*
 * Number rental (spec 001 §2 Numbers area, §4 New number flow, §7). Buying or managing a number
 * needs a verified billing profile and a phone: otherwise retcode 100023 with ProfileRequiredData.
 */

/** A country numbers are rented in: CA, US, GB, AU or TollFree (spec 001 §9). */
export const NumberCountry = z.enum(constants.numberCountries);
export type NumberCountry = z.infer<typeof NumberCountry>;

/** The kind of number (decided ids): local, mobile, tollFree. */
export const NumberKind = z.enum(constants.numberKinds);
export type NumberKind = z.infer<typeof NumberKind>;

/** An area code: digits (e.g. '415'). */
export const AreaCode = z.string().regex(/^\d{1,6}$/, 'Invalid area code');

const PlanId = z.number().int().positive();
const qPlanId = qInt.pipe(PlanId);

/**
 * A province (state) and its area codes; GB and AU have a single unnamed one ('' name). Decided
 * (issue 20): `code` is its ISO 3166-2 code ('US-AZ'; '' for the unnamed one), the id a client
 * chooses by; `name` is in the request's language.
 */
export const Province = z.object({ code: z.string(), name: z.string(), areaCodes: z.array(AreaCode) });
/** A kind of number offered in a country, with its provinces. */
export const NumberTypeEntry = z.object({ type: NumberKind, name: z.string(), provinces: z.array(Province) });

/**
 * Area-code data of one country (spec 001 §3): telCode, nameNcode (the country's name with its code,
 * as the select shows it) and the type list. Decided: a list in select order, each with its `code`.
 */
export const AreaCountry = z.object({
  code: NumberCountry,
  telCode: TelCode,
  nameNcode: z.string(),
  typeList: z.array(NumberTypeEntry),
});
export type AreaCountry = z.infer<typeof AreaCountry>;

export const getAreaCodeV2 = defineEndpoint({
  name: 'getAreaCodeV2',
  method: 'GET',
  path: '/web/getAreaCodeV2',
  access: 'optional',
  summary: 'The countries, number kinds, provinces and area codes numbers can be rented in.',
  input: Empty,
  output: z.object({ countries: z.array(AreaCountry), defaultCode: NumberCountry }),
});

/**
 * Numbers free to rent in an area (spec 001 §7). `areaCode` is left out for GB and AU (and may be for
 * toll-free). Decided: `numbers` are national numbers (digits), best first; an empty list is not an
 * error (the client shows its "no number" notice).
 */
export const getVirtualPhoneByAreaCode = defineEndpoint({
  name: 'getVirtualPhoneByAreaCode',
  method: 'GET',
  path: '/web/getVirtualPhoneByAreaCode',
  access: 'session',
  summary: 'Numbers available to rent for a country, kind and area code.',
  input: z.strictObject({
    code: NumberCountry,
    type: NumberKind,
    telCode: TelCode,
    areaCode: AreaCode.optional(),
  }),
  output: z.object({ numbers: z.array(NationalNumber) }),
});

/** A titled list of a plan's features (spec 001 §3 planDescList). */
export const PlanDesc = z.object({ title: z.string(), items: z.array(z.string()) });

/**
 * A plan price option (spec 001 §3). Options of one plan group share `planName` (Unlimited, Unlimited
 * Voice, Unlimited Texts, Pay As You Go). Decided: `planRent` is the price per `planRentPeriod`
 * (month, quarter, year), `monthRent` the same per month; `chargeType` 1 rent per period, 2 pay as
 * you go; `discount` the fraction saved against monthly (0 to 1); `nextPaymentDate` the ISO date of
 * the next rent if subscribed today; `urlDict` named links (terms, privacy, details).
 */
export const Plan = z.object({
  planId: PlanId,
  planName: z.string(),
  planRent: Money,
  planRentPeriod: z.enum(constants.planRentPeriods),
  chargeType: z.literal(Object.values(constants.planChargeTypes)),
  monthRent: Money,
  activationFee: Money,
  discount: z.number().min(0).max(1),
  tip: z.string(),
  nextPaymentDate: IsoDate,
  planDescList: z.array(PlanDesc),
  urlDict: z.record(z.string(), z.string()),
});
export type Plan = z.infer<typeof Plan>;

export const getPlanList = defineEndpoint({
  name: 'getPlanList',
  method: 'GET',
  path: '/web/getPlanList',
  access: 'optional',
  summary: 'The plans and price options for numbers of a country and kind.',
  input: z.strictObject({ code: NumberCountry, type: NumberKind }),
  output: z.object({ planList: z.array(Plan) }),
});

/**
 * The plans a rented number may move to (spec 001 §3 manage-plan response). Decided additions for
 * the plan-change marks (spec 001 §2): `currentPlanId`, and `pendingPlanId` / `pendingEffectiveDate`
 * when a change waits for the next cycle (null otherwise).
 */
export const getManagePlanList = defineEndpoint({
  name: 'getManagePlanList',
  method: 'GET',
  path: '/web/getManagePlanList',
  access: 'session',
  summary: "The plan options of one of the account's numbers, with the current and pending plan.",
  input: z.strictObject({ virtualNumber: FullNumber }),
  output: z.object({
    planList: z.array(Plan),
    profileStatus: ProfileStatus,
    needSetPhone: z.boolean(),
    currentPlanId: PlanId,
    pendingPlanId: PlanId.nullable(),
    pendingEffectiveDate: IsoDate.nullable(),
  }),
});

/** Plan change timing: 1 immediately, 2 at the next billing cycle (spec 001 §3). */
export const PlanChangeType = z.literal(Object.values(constants.planChangeTypes));

/**
 * A plan change option (spec 001 §3). `payAmount` is charged now (0 for a next-cycle change); `rule`
 * and `tip` are the texts the timing dialog shows.
 */
export const PlanChangeOption = z.object({
  type: PlanChangeType,
  planId: PlanId,
  tip: z.string(),
  payAmount: Money,
  planName: z.string(),
  rule: z.string(),
});
export type PlanChangeOption = z.infer<typeof PlanChangeOption>;

export const preChangePlan = defineEndpoint({
  name: 'preChangePlan',
  method: 'GET',
  path: '/web/preChangePlan',
  access: 'session',
  summary: 'The ways (now or next cycle) and prices of moving a number to another plan.',
  input: z.strictObject({ virtualNumber: FullNumber, planId: qPlanId }),
  output: z.object({ changeList: z.array(PlanChangeOption) }),
});

/** A GET that changes state, as the spec has it; 400001 when the balance is short. */
export const changePlan = defineEndpoint({
  name: 'changePlan',
  method: 'GET',
  path: '/web/changePlan',
  access: 'session',
  summary: 'Move a number to another plan, now (charged at once) or at the next cycle.',
  input: z.strictObject({
    virtualNumber: FullNumber,
    planId: qPlanId,
    type: qInt.pipe(PlanChangeType),
  }),
  output: z.object({ successHint: z.string(), planHint: z.string() }),
});

/** A subscription result (spec 001 §3): the history entry, its date and the hint to show. */
export const SubscriptionResult = z.object({ historyId: EntityId, date: EpochMs, subHint: z.string() });
export type SubscriptionResult = z.infer<typeof SubscriptionResult>;

export const subVirtualPhone = defineEndpoint({
  name: 'subVirtualPhone',
  method: 'POST',
  path: '/web/subVirtualPhone',
  access: 'session',
  summary:
    'Rent a number on a plan; the first period is charged at once (400001 when short, 100023 without profile).',
  input: z.strictObject({
    planId: PlanId,
    telCode: TelCode,
    phone: NationalNumber,
    code: NumberCountry,
    type: NumberKind,
  }),
  output: SubscriptionResult,
});

/**
 * Re-subscribe an expired number from its history entry (type 100). Decided: `date` is the entry's
 * `date` (epoch ms), checked with `historyId`; 300033 when the number can no longer be restored.
 */
export const reSubVirtualPhone = defineEndpoint({
  name: 'reSubVirtualPhone',
  method: 'POST',
  path: '/web/reSubVirtualPhone',
  access: 'session',
  summary: 'Restore an expired number on its last plan (charged at once).',
  input: z.strictObject({ historyId: EntityId, date: EpochMs }),
  output: SubscriptionResult,
});

/**
 * Give a number back. Decided (issue 11): renewals stop and the number stays the account's until its
 * paid period ends (its paymentDate), when the renewal job releases it; nothing is refunded (the
 * confirmation dialog says so). History type 5. The result is empty.
 */
export const unSubVirtualPhone = defineEndpoint({
  name: 'unSubVirtualPhone',
  method: 'POST',
  path: '/web/unSubVirtualPhone',
  access: 'session',
  summary: "Unsubscribe one of the account's numbers.",
  input: z.strictObject({ telCode: TelCode, phone: NationalNumber }),
  output: Empty,
});

/**
 * Forwarding and voicemail are mutually exclusive: turning one on turns the other off. Decided result
 * (spec: none): both statuses after the change, so the settings switches need no refetch.
 */
const ForwardVoicemailStatus = z.object({
  forwardStatus: z.union([z.literal(0), z.literal(1)]),
  voicemailStatus: z.union([z.literal(0), z.literal(1)]),
});

export const setForward = defineEndpoint({
  name: 'setForward',
  method: 'POST',
  path: '/web/setForward',
  access: 'session',
  summary: 'Turn forwarding of calls to the account phone on (1) or off (0); on turns voicemail off.',
  input: z.strictObject({ forward: qFlag }),
  output: ForwardVoicemailStatus,
});

export const setVoicemail = defineEndpoint({
  name: 'setVoicemail',
  method: 'POST',
  path: '/web/setVoicemail',
  access: 'session',
  summary: 'Turn voicemail on (1) or off (0); on turns forwarding off.',
  input: z.strictObject({ voicemail: qFlag }),
  output: ForwardVoicemailStatus,
});
