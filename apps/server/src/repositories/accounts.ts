import type { BrandId, Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q } from '../db';

export const AccountStatus = { active: 1, suspended: 2, deleted: 3 } as const;

export interface Account {
  id: number;
  brand: BrandId;
  email: string | null;
  telCode: string | null;
  phone: string | null;
  status: number;
  /** Ten-thousandths of the brand's unit (moved only by ledger rows). */
  balance: Minor;
  canInvite: boolean;
  canSetInviter: boolean;
  createdAt: Date;
}

const columns = [
  'id',
  'brand',
  'email',
  'tel_code as telCode',
  'phone',
  'status',
  'balance',
  'can_invite as canInvite',
  'can_set_inviter as canSetInviter',
  'created_at as createdAt',
] as const;

export type SignInAddress = { email: string } | { telCode: string; phone: string };

export const accountsRepo = {
  async byId(q: Q, id: number): Promise<Account | null> {
    return (await q.selectFrom('accounts').select(columns).where('id', '=', id).executeTakeFirst()) ?? null;
  },

  async byAddress(q: Q, brand: BrandId, address: SignInAddress): Promise<Account | null> {
    let query = q.selectFrom('accounts').select(columns).where('brand', '=', brand);
    query =
      'email' in address
        ? query.where('email', '=', address.email)
        : query
            .where(sql<string>`tel_code || phone`, '=', `${address.telCode}${address.phone}`)
            .where('phone', 'is not', null);
    return (await query.executeTakeFirst()) ?? null;
  },

  /** An account of the brand by its full phone number's digits (the operator's lookup). */
  async idByFullPhone(q: Q, brand: BrandId, digits: string): Promise<number | null> {
    const row = await q
      .selectFrom('accounts')
      .select('id')
      .where('brand', '=', brand)
      .where(sql<string>`tel_code || phone`, '=', digits)
      .where('phone', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  },

  /** Creates the account of an address, or returns the one a concurrent sign-in just created. */
  async findOrCreate(q: Q, brand: BrandId, address: SignInAddress): Promise<Account> {
    const inserted = await q
      .insertInto('accounts')
      .values(
        'email' in address
          ? { brand, email: address.email }
          : { brand, tel_code: address.telCode, phone: address.phone },
      )
      .onConflict((oc) => oc.doNothing())
      .returning(columns)
      .executeTakeFirst();
    const row = inserted ?? (await accountsRepo.byAddress(q, brand, address));
    if (!row) throw new Error('account neither inserted nor found');
    return row;
  },

  async setStatus(q: Q, id: number, status: number): Promise<void> {
    await q
      .updateTable('accounts')
      .set({ status, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  },

  /** Whether the database holds any account (a new database gets the demo accounts in dev). */
  async any(q: Q): Promise<boolean> {
    return (await q.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
  },

  /** The brands that have accounts. */
  async brands(q: Q): Promise<BrandId[]> {
    const rows = await q.selectFrom('accounts').select('brand').distinct().orderBy('brand').execute();
    return rows.map((r) => r.brand);
  },

  async vipUntil(q: Q, id: number): Promise<Date | null> {
    return (
      (await q.selectFrom('accounts').select('vip_until').where('id', '=', id).executeTakeFirst())
        ?.vip_until ?? null
    );
  },
};
