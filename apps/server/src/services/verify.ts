import { randomBytes } from 'node:crypto';
import { constants, type Brand, type Lang } from '@numa/contract';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import type { SignInAddress } from '../repositories/accounts';
import { accountAddressRepo, verificationsRepo } from '../repositories/verifications';
import { accountText } from './accountTexts';
import type { SigninService } from './signin';

export type VerifyChannel = 'sms' | 'email';

/** A unique-index violation (PostgreSQL and PGlite both report SQLSTATE 23505). */
export const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

const inUse = (address: SignInAddress) => new ApiError('email' in address ? 100018 : 100017);

/**
 * Proving a phone or an e-mail for a signed-in account, then giving it to the account (spec 000 §2,
 * §4 verify modal). The code rules and the dev outbox are the sign-in ones (services/signin, purpose
 * `verify`). A verification (`verifyid`) belongs to one account and one address; once its code is
 * right it may be spent once, within the code's lifetime, by the set/update call for that address.
 */
export function createVerifyService(db: Database, codes: SigninService) {
  /** Refuses an address another account of the brand already has (100017 phone, 100018 e-mail). */
  const assertFree = async (brand: Brand, accountId: number, address: SignInAddress) => {
    const holder = await accountAddressRepo.holder(db.q, brand.id, address);
    if (holder !== null && holder !== accountId) throw inUse(address);
  };

  return {
    async send(p: { brand: Brand; lang: Lang; accountId: number; ip: string; address: SignInAddress }) {
      await assertFree(p.brand, p.accountId, p.address);
      const sent = await codes.send({
        brand: p.brand,
        lang: p.lang,
        purpose: 'verify',
        address: p.address,
        ip: p.ip,
        accountId: p.accountId,
      });
      const verifyid = randomBytes(18).toString('base64url');
      await verificationsRepo.insert(db.q, {
        id: verifyid,
        accountId: p.accountId,
        brand: p.brand.id,
        ...p.address,
      });
      return { verifyid, ...sent };
    },

    /**
     * Checks the code of a verification of this account. Wrong: 100004; dead, used, unknown or another
     * account's: 100006.
     */
    async validate(p: {
      brand: Brand;
      accountId: number;
      verifyid: string;
      code: string;
      channel: VerifyChannel;
    }): Promise<void> {
      const v = await verificationsRepo.mine(db.q, p.verifyid, p.accountId);
      if (!v || v.channel !== p.channel || v.brand !== p.brand.id) throw new ApiError(100006);
      if (v.validatedAt) return; // a second submit of the right code (double click) is fine
      const address: SignInAddress =
        v.email !== null ? { email: v.email } : { telCode: v.telCode!, phone: v.phone! };
      await codes.check({ brand: p.brand, purpose: 'verify', address, code: p.code }, async (q, row) => {
        // the newest code for this address was asked for by another account: not this verification's
        if (row.accountId !== p.accountId) throw new ApiError(100006);
        await verificationsRepo.markValidated(q, v.id);
      });
    },

    /**
     * Gives the account the address its validated verification proved. `set` is for an account
     * without that kind of address, `update` replaces one (contract: verify.ts); the wrong one is
     * 400000. Two accounts taking one address at once: one gets it, the other 100017 / 100018.
     */
    async apply(p: {
      brand: Brand;
      accountId: number;
      verifyid: string;
      address: SignInAddress;
      mode: 'set' | 'update';
    }) {
      const byEmail = 'email' in p.address;
      try {
        return await db.tx(async (q) => {
          const account = await accountAddressRepo.lock(q, p.accountId);
          if (!account) throw new ApiError(100012);
          const v = await verificationsRepo.mineForUpdate(q, p.verifyid, p.accountId);
          const matches =
            v &&
            v.brand === p.brand.id &&
            (byEmail
              ? v.email === (p.address as { email: string }).email
              : v.telCode === (p.address as { telCode: string }).telCode &&
                v.phone === (p.address as { phone: string }).phone);
          if (!v || !matches || !v.validatedAt)
            throw new ApiError(100006, null, 'this address has not been verified');
          if (v.usedAt || Date.now() - v.validatedAt.getTime() > constants.signin.codeTtlMs)
            throw new ApiError(100006, null, 'verification used or expired');

          const has = byEmail ? account.email !== null : account.phone !== null;
          if (p.mode === 'set' && has)
            throw new ApiError(
              400000,
              null,
              'set: already has one',
              accountText(byEmail ? 'emailAlreadySet' : 'phoneAlreadySet'),
            );
          if (p.mode === 'update' && !has)
            throw new ApiError(
              400000,
              null,
              'update: none yet',
              accountText(byEmail ? 'noEmailYet' : 'noPhoneYet'),
            );

          const holder = await accountAddressRepo.holder(q, p.brand.id, p.address);
          if (holder !== null && holder !== p.accountId) throw inUse(p.address);
          if ('email' in p.address) await accountAddressRepo.setEmail(q, p.accountId, p.address.email);
          else await accountAddressRepo.setPhone(q, p.accountId, p.address.telCode, p.address.phone);
          if (!(await verificationsRepo.markUsed(q, v.id))) throw new ApiError(100006);

          const after = (await accountAddressRepo.lock(q, p.accountId))!;
          return { telCode: after.telCode ?? '', phone: after.phone ?? '', email: after.email ?? '' };
        });
      } catch (err) {
        // two accounts taking the same address at once: the unique index lets one through
        if (isUniqueViolation(err)) throw inUse(p.address);
        throw err;
      }
    },
  };
}

export type VerifyService = ReturnType<typeof createVerifyService>;
