import { fromMinor } from '@numa/contract';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import { accountsRepo } from '../repositories/accounts';

export { AccountStatus, type Account, type SignInAddress } from '../repositories/accounts';

/** The signed-in account's own facts (getAccountInfo, queryBalance). */
export function createAccountService(db: Database) {
  const mine = async (accountId: number) => {
    const a = await accountsRepo.byId(db.q, accountId);
    if (!a) throw new ApiError(100012);
    return a;
  };
  return {
    byId: (accountId: number) => accountsRepo.byId(db.q, accountId),

    async info(accountId: number) {
      const a = await mine(accountId);
      return {
        telCode: a.telCode ?? '',
        phone: a.phone ?? '',
        email: a.email ?? '',
        status: a.status,
        canInvite: a.canInvite,
        canSetInviter: a.canSetInviter,
      };
    },

    /** The balance as the API shows it (a number in the brand's unit). */
    async balance(accountId: number): Promise<number> {
      return fromMinor((await mine(accountId)).balance);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
