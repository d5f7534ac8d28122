import type { BrandId } from '@numa/contract';
import { sql } from 'kysely';
import type { Q } from '../db';

/** An API key as stored (never the key itself). */
export interface ApiKeyRow {
  id: number;
  accountId: number;
  brand: BrandId;
  name: string;
  prefix: string;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A key found by its hash, with its account's status (an authentication's one read). */
export interface ApiKeyWithAccount extends ApiKeyRow {
  accountStatus: number;
}

const cols = [
  'k.id',
  'k.account_id as accountId',
  'k.brand',
  'k.name',
  'k.prefix',
  'k.scopes',
  'k.created_at as createdAt',
  'k.last_used_at as lastUsedAt',
  'k.revoked_at as revokedAt',
] as const;
/** The same, unqualified (INSERT … RETURNING names no alias). */
const insertCols = [
  'id',
  'account_id as accountId',
  'brand',
  'name',
  'prefix',
  'scopes',
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
  'revoked_at as revokedAt',
] as const;

/** Migration 110's api_keys (issue 21). */
export const apiKeysRepo = {
  async insert(
    q: Q,
    k: { accountId: number; brand: BrandId; name: string; prefix: string; tokenHash: string; scopes: string },
  ): Promise<ApiKeyRow> {
    return q
      .insertInto('api_keys')
      .values({
        account_id: k.accountId,
        brand: k.brand,
        name: k.name,
        prefix: k.prefix,
        token_hash: k.tokenHash,
        scopes: k.scopes,
      })
      .returning(insertCols)
      .executeTakeFirstOrThrow();
  },

  async countLive(q: Q, accountId: number): Promise<number> {
    const row = await q
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The account's keys, newest first; revoked ones only when asked (the operator's list). */
  async ofAccount(q: Q, accountId: number, withRevoked = false): Promise<ApiKeyRow[]> {
    let query = q.selectFrom('api_keys as k').select(cols).where('k.account_id', '=', accountId);
    if (!withRevoked) query = query.where('k.revoked_at', 'is', null);
    return query.orderBy('k.id', 'desc').execute();
  },

  async forHash(q: Q, tokenHash: string): Promise<ApiKeyWithAccount | null> {
    return (
      (await q
        .selectFrom('api_keys as k')
        .innerJoin('accounts as a', 'a.id', 'k.account_id')
        .select([...cols, 'a.status as accountStatus'])
        .where('k.token_hash', '=', tokenHash)
        .executeTakeFirst()) ?? null
    );
  },

  /** Revokes one live key of the account; null when it has none of that id. */
  async revoke(q: Q, accountId: number, id: number): Promise<ApiKeyRow | null> {
    return (
      (await q
        .updateTable('api_keys as k')
        .set({ revoked_at: sql`now()` })
        .where('k.id', '=', id)
        .where('k.account_id', '=', accountId)
        .where('k.revoked_at', 'is', null)
        .returning(cols)
        .executeTakeFirst()) ?? null
    );
  },

  async touch(q: Q, id: number): Promise<void> {
    await q
      .updateTable('api_keys')
      .set({ last_used_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  },
};
