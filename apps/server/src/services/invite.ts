import { randomInt } from 'node:crypto';
import {
  constants,
  formatMoney,
  fromMinor,
  toMinor,
  type Brand,
  type InviteInfo,
  type Lang,
} from '@numa/contract';
import { idemKey } from '../lib/idem';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import { accountsRepo, AccountStatus } from '../repositories/accounts';
import { inviteRepo } from '../repositories/invite';
import { ledger } from '../repositories/ledger';
import { accountText, accountTexts } from './accountTexts';
import { fill } from '../lib/texts';
import { isUniqueViolation } from './verify';

/** Invite-code letters: upper case and digits without the look-alikes 0/O and 1/I. */
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 8 characters of 32: 2^40 codes, so guessing one is hopeless at the redeem rate limit. */
export const inviteCodeLength = 8;
export const newInviteCode = () =>
  Array.from({ length: inviteCodeLength }, () => alphabet[randomInt(alphabet.length)]).join('');

/**
 * The unlock bonus (spec 000 §9, spec 001 §9: 0.2 for each side). Decided: 0.2 in the brand's own
 * unit (Coins, dollars or cloud coins), stored in ten-thousandths like every amount.
 */
export const unlockBonusMinor = toMinor(constants.unlockBonus);

const refuse = (key: Parameters<typeof accountText>[0], detail: string) =>
  new ApiError(400000, null, detail, accountText(key));

/**
 * Invite and redeem (spec 001 §2, §9). Each account has one stable code. Redeeming a friend's code
 * needs a phone on the account (100025 otherwise: setting up a phone is what unlocks redeeming), is
 * possible once per account and once per phone number (whichever account holds it), never with one's
 * own code, the code of a friend who redeemed one's own, a code of another brand, or a code whose
 * owner was paid `inviteBonusesPerInviterPerMonth` bonuses this calendar month (UTC; issue 9, hole
 * 8); it credits both sides the bonus in one transaction, each as a ledger row under an idempotency
 * key, and closes redeeming for the account (canSetInviter false).
 */
export function createInviteService(db: Database) {
  return {
    /** The account's code, made on first ask (needs canInvite: 100003 otherwise). */
    async codeFor(accountId: number, brand: Brand): Promise<string> {
      const account = await accountsRepo.byId(db.q, accountId);
      if (!account) throw new ApiError(100012);
      if (!account.canInvite)
        throw new ApiError(100003, null, 'cannot invite', accountText('inviteUnavailable'));
      const existing = await inviteRepo.codeOf(db.q, accountId);
      if (existing) return existing;
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          const code = await inviteRepo.claim(db.q, accountId, brand.id, newInviteCode());
          if (code) return code; // ours, or the one a concurrent first ask just filed
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      throw new Error('could not find a free invite code');
    },

    /** The invite page: code, rules, hint and earn tips in the caller's language. */
    async info(accountId: number, brand: Brand, lang: Lang): Promise<InviteInfo> {
      const inviteCode = await this.codeFor(accountId, brand);
      const texts = accountTexts(lang);
      const vars = {
        brand: brand.name[lang],
        bonus: formatMoney(brand, constants.unlockBonus, lang, 1),
        cap: constants.inviteBonusesPerInviterPerMonth,
      };
      return {
        inviteCode,
        inviteRules: texts.inviteRules.map((r) => fill(r, vars)),
        inviteHint: fill(texts.inviteHint, vars),
        earnTip: texts.earnTips.map((tip) => ({ title: fill(tip.title, vars), text: fill(tip.text, vars) })),
      };
    },

    /** Whether the account may redeem: its phone, balance and canSetInviter (false without a phone). */
    async inviter(accountId: number, phone: string | undefined) {
      const account = await accountsRepo.byId(db.q, accountId);
      if (!account) throw new ApiError(100012);
      if (phone !== undefined && phone !== account.phone)
        throw new ApiError(100003, null, 'not the account phone');
      return {
        phone: account.phone ?? '',
        telCode: account.telCode ?? '',
        canSetInviter: account.canSetInviter && !!account.phone,
        balance: fromMinor(account.balance),
      };
    },

    async redeem(accountId: number, brand: Brand, code: string): Promise<{ balance: number; bonus: number }> {
      return db
        .tx(async (q) => {
          const inviterId = await inviteRepo.ownerOf(q, brand.id, code);
          const parties = await inviteRepo.lockParties(
            q,
            inviterId !== null ? [accountId, inviterId] : [accountId],
          );
          const me = parties.get(accountId);
          if (!me) throw new ApiError(100012);
          if (!me.canSetInviter || (await inviteRepo.redemptionBy(q, accountId)))
            throw refuse('inviteAlreadyRedeemed', 'already redeemed');
          if (!me.phone || !me.telCode) throw new ApiError(100025);
          // one bonus per phone number, whichever account holds it now (issue 9, hole 8)
          const redeemerPhone = `+${me.telCode}${me.phone}`;
          if (await inviteRepo.phoneRedeemed(q, brand.id, redeemerPhone))
            throw refuse('invitePhoneRedeemed', 'phone already redeemed');
          if (inviterId === accountId) throw refuse('inviteCodeOwn', 'own code');
          const inviter = inviterId !== null ? parties.get(inviterId) : undefined;
          if (
            !inviter ||
            inviter.brand !== brand.id ||
            inviter.status !== AccountStatus.active ||
            !inviter.canInvite
          ) {
            throw refuse('inviteCodeUnknown', 'unknown code');
          }
          if ((await inviteRepo.redemptionBy(q, inviter.id))?.inviterId === accountId)
            throw refuse('inviteMutual', 'mutual invite');
          // the inviter's row is locked (lockParties), so concurrent redemptions of one code count in turn
          if ((await inviteRepo.countThisMonth(q, inviter.id)) >= constants.inviteBonusesPerInviterPerMonth) {
            throw refuse('inviteCapReached', 'inviter cap reached this month');
          }
          if (
            !(await inviteRepo.redeem(q, {
              redeemerId: accountId,
              inviterId: inviter.id,
              brand: brand.id,
              code,
              redeemerPhone,
            }))
          ) {
            throw refuse('inviteAlreadyRedeemed', 'already redeemed');
          }
          const options = { purchaseMethod: 'invite', amount: constants.unlockBonus, inviteCode: code };
          const mine = await ledger.apply(q, {
            accountId,
            type: constants.billTypes.redeemBonus,
            charge: unlockBonusMinor,
            options,
            idempotencyKey: idemKey('invite:redeemer', accountId),
          });
          await ledger.apply(q, {
            accountId: inviter.id,
            type: constants.billTypes.inviteBonus,
            charge: unlockBonusMinor,
            options,
            idempotencyKey: idemKey('invite:inviter', accountId),
          });
          await inviteRepo.closeRedeeming(q, accountId);
          return { balance: fromMinor(mine.row.afterBalance), bonus: fromMinor(unlockBonusMinor) };
        })
        .catch((err: unknown) => {
          // one number redeeming from two accounts at once: the unique index lets one through
          if (isUniqueViolation(err)) throw refuse('invitePhoneRedeemed', 'phone already redeemed');
          throw err;
        });
    },
  };
}

export type InviteService = ReturnType<typeof createInviteService>;
