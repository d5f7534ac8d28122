import type { BrandId } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';

export type CodePurpose = 'login' | 'verify';
export type CodeChannel = 'email' | 'sms';

export interface CodeRow {
  id: number;
  codeHash: string;
  wrongTries: number;
  createdAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
  accountId: number | null;
}

const cols = [
  'id',
  'code_hash as codeHash',
  'wrong_tries as wrongTries',
  'created_at as createdAt',
  'expires_at as expiresAt',
  'consumed_at as consumedAt',
  'account_id as accountId',
] as const;

/** Codes sent to sign in or to prove a phone or an e-mail (table signin_codes), stored hashed. */
export const signinCodesRepo = {
  /** The newest code of an address, locked for checking. */
  async latestForUpdate(
    tx: Tx,
    brand: BrandId,
    purpose: CodePurpose,
    address: string,
  ): Promise<CodeRow | null> {
    const row = await tx
      .selectFrom('signin_codes')
      .select(cols)
      .where('brand', '=', brand)
      .where('purpose', '=', purpose)
      .where('address', '=', address)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    return row ?? null;
  },

  async insert(
    q: Q,
    c: {
      brand: BrandId;
      purpose: CodePurpose;
      address: string;
      channel: CodeChannel;
      codeHash: string;
      expiresAt: Date;
      accountId?: number | null;
      ip?: string;
    },
  ): Promise<number> {
    const row = await q
      .insertInto('signin_codes')
      .values({
        brand: c.brand,
        purpose: c.purpose,
        address: c.address,
        channel: c.channel,
        code_hash: c.codeHash,
        expires_at: c.expiresAt,
        account_id: c.accountId ?? null,
        ip: c.ip ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },

  async addWrongTry(q: Q, id: number): Promise<number> {
    const row = await q
      .updateTable('signin_codes')
      .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
      .where('id', '=', id)
      .returning('wrong_tries')
      .executeTakeFirst();
    return row?.wrong_tries ?? 0;
  },

  /** Marks a code used; false when another request used it first. */
  async consume(q: Q, id: number): Promise<boolean> {
    const row = await q
      .updateTable('signin_codes')
      .set({ consumed_at: sql`now()` })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Purge: codes that expired before `before` (used or not). */
  async deleteExpired(q: Q, before: Date, limit: number): Promise<number> {
    const res = await q
      .deleteFrom('signin_codes')
      .where('id', 'in', (eb) =>
        eb.selectFrom('signin_codes').select('id').where('expires_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
