import type { BrandId } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import type { CodeChannel } from './signin';

export interface VerificationRow {
  id: string;
  accountId: number;
  brand: BrandId;
  channel: CodeChannel;
  telCode: string | null;
  phone: string | null;
  email: string | null;
  createdAt: Date;
  validatedAt: Date | null;
  usedAt: Date | null;
}

const cols = [
  'id',
  'account_id as accountId',
  'brand',
  sql<CodeChannel>`channel`.as('channel'),
  'tel_code as telCode',
  'phone',
  'email',
  'created_at as createdAt',
  'validated_at as validatedAt',
  'used_at as usedAt',
] as const;

/** Verifications of a phone or an e-mail for an account (the `verifyid` of the verify calls). */
export const verificationsRepo = {
  async insert(
    q: Q,
    v: { id: string; accountId: number; brand: BrandId } & (
      { telCode: string; phone: string } | { email: string }
    ),
  ): Promise<void> {
    const byPhone = 'phone' in v;
    await q
      .insertInto('address_verifications')
      .values({
        id: v.id,
        account_id: v.accountId,
        brand: v.brand,
        channel: byPhone ? 'sms' : 'email',
        tel_code: byPhone ? v.telCode : null,
        phone: byPhone ? v.phone : null,
        email: byPhone ? null : v.email,
      })
      .execute();
  },

  /** The verification if it belongs to this account (another account's id reads as unknown). */
  async mine(q: Q, id: string, accountId: number): Promise<VerificationRow | null> {
    return (
      (await q
        .selectFrom('address_verifications')
        .select(cols)
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst()) ?? null
    );
  },

  /** The same, locked for spending. */
  async mineForUpdate(tx: Tx, id: string, accountId: number): Promise<VerificationRow | null> {
    return (
      (await tx
        .selectFrom('address_verifications')
        .select(cols)
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .forUpdate()
        .executeTakeFirst()) ?? null
    );
  },

  async markValidated(q: Q, id: string): Promise<void> {
    await q
      .updateTable('address_verifications')
      .set({ validated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  },

  /** Spends a validated verification; false when it was spent already. */
  async markUsed(q: Q, id: string): Promise<boolean> {
    const row = await q
      .updateTable('address_verifications')
      .set({ used_at: sql`now()` })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },
};

/** Address changes of an account (the verify calls' last step). */
export const accountAddressRepo = {
  /** Another account of the brand holding this phone or e-mail, if any. */
  async holder(
    q: Q,
    brand: BrandId,
    address: { telCode: string; phone: string } | { email: string },
  ): Promise<number | null> {
    let query = q.selectFrom('accounts').select('id').where('brand', '=', brand);
    query =
      'email' in address
        ? query.where('email', '=', address.email)
        : // the joined number (the unique index's key: one account per number, however split)
          query
            .where(sql<string>`tel_code || phone`, '=', `${address.telCode}${address.phone}`)
            .where('phone', 'is not', null);
    return (await query.executeTakeFirst())?.id ?? null;
  },

  async lock(
    tx: Tx,
    accountId: number,
  ): Promise<{ telCode: string | null; phone: string | null; email: string | null } | null> {
    return (
      (await tx
        .selectFrom('accounts')
        .select(['tel_code as telCode', 'phone', 'email'])
        .where('id', '=', accountId)
        .forUpdate()
        .executeTakeFirst()) ?? null
    );
  },

  async setPhone(q: Q, accountId: number, telCode: string, phone: string): Promise<void> {
    await q
      .updateTable('accounts')
      .set({ tel_code: telCode, phone, updated_at: sql`now()` })
      .where('id', '=', accountId)
      .execute();
  },

  async setEmail(q: Q, accountId: number, email: string): Promise<void> {
    await q
      .updateTable('accounts')
      .set({ email, updated_at: sql`now()` })
      .where('id', '=', accountId)
      .execute();
  },
};
