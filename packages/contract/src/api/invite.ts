import { z } from 'zod';
import { Empty, Money, NationalNumber } from '../common';
import { defineEndpoint } from '../endpoint';

/** An invite code: 4 to 32 letters or digits, case-insensitive (the server upper-cases it). */
export const InviteCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{4,32}$/, 'Invalid invite code')
  .transform((v) => v.toUpperCase());

/** One earn tip of the invite page (spec 001 §2): a title and a text; the icon is chosen by position. */
export const EarnTip = z.object({ title: z.string(), text: z.string() });

/**
 * Invite info (spec 001 §3). Decided: `inviteRules` are the paragraphs of the 'more' dialog,
 * `inviteHint` the hint text under the tips; texts are in the caller's language. The share link is
 * the brand's site with `?referral=<inviteCode>` (constants.referralQueryParam).
 */
export const InviteInfo = z.object({
  inviteCode: z.string(),
  inviteRules: z.array(z.string()),
  inviteHint: z.string(),
  earnTip: z.array(EarnTip),
});
export type InviteInfo = z.infer<typeof InviteInfo>;

export const queryInviteInfo = defineEndpoint({
  name: 'queryInviteInfo',
  method: 'GET',
  path: '/web/queryInviteInfo',
  access: 'session',
  summary: "The account's invite code, the rules, the hint and the earn tips (needs canInvite).",
  input: Empty,
  output: InviteInfo,
});

export const getInviteCode = defineEndpoint({
  name: 'getInviteCode',
  method: 'GET',
  path: '/web/getInviteCode',
  access: 'session',
  summary: "The account's invite code (made on first ask).",
  input: Empty,
  output: z.object({ inviteCode: z.string() }),
});

/** The account part of the invite area (spec 001 §3 "Account": phone, telCode, canSetInviter, balance). */
export const InviterAccount = z.object({
  phone: z.string(),
  telCode: z.string(),
  canSetInviter: z.boolean(),
  balance: Money,
});
export type InviterAccount = z.infer<typeof InviterAccount>;

/**
 * Whether the account may still redeem a code. Decided: `phone` is the account's own phone as
 * getAccountInfo gives it (optional; when given it must be the account's); canSetInviter is false
 * once a code was redeemed, and without an account phone.
 */
export const getInviter = defineEndpoint({
  name: 'getInviter',
  method: 'GET',
  path: '/web/getInviter',
  access: 'session',
  summary: 'Whether the account can redeem an invite code, with its phone and balance.',
  input: z.strictObject({ phone: NationalNumber.optional() }),
  output: InviterAccount,
});

/**
 * Redeem a friend's invite code (once per account; needs an account phone, else 100025). Both sides
 * get constants.unlockBonus (spec 001 §9: "each side"). Decided result: this account's new balance
 * and the bonus credited; own codes and unknown codes are 400000.
 */
export const setInviter = defineEndpoint({
  name: 'setInviter',
  method: 'POST',
  path: '/web/setInviter',
  access: 'session',
  summary: "Redeem a friend's invite code; credits the unlock bonus.",
  input: z.strictObject({ inviteCode: InviteCode }),
  output: z.object({ balance: Money, bonus: Money }),
});
