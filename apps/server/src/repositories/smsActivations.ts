import { sql } from 'kysely';
import type { Q } from '../db';

export interface ActivationRow {
  lockId: number;
  accountId: number;
  keyId: number;
  readyAt: Date | null;
  retryAt: Date | null;
  finishedAt: Date | null;
}

const cols = [
  'lock_id as lockId',
  'account_id as accountId',
  'key_id as keyId',
  'ready_at as readyAt',
  'retry_at as retryAt',
  'finished_at as finishedAt',
] as const;

/** Migration 110's sms_activations: the SMS-Activate protocol's states of a code lock (issue 21). */
export const smsActivationsRepo = {
  async insert(q: Q, a: { lockId: number; accountId: number; keyId: number }): Promise<void> {
    await q
      .insertInto('sms_activations')
      .values({ lock_id: a.lockId, account_id: a.accountId, key_id: a.keyId })
      .onConflict((oc) => oc.column('lock_id').doNothing())
      .execute();
  },

  async get(q: Q, accountId: number, lockId: number): Promise<ActivationRow | null> {
    return (
      (await q
        .selectFrom('sms_activations')
        .select(cols)
        .where('lock_id', '=', lockId)
        .where('account_id', '=', accountId)
        .executeTakeFirst()) ?? null
    );
  },

  async mark(
    q: Q,
    accountId: number,
    lockId: number,
    what: 'ready_at' | 'retry_at' | 'finished_at',
    at: Date,
  ): Promise<void> {
    await q
      .updateTable('sms_activations')
      .set({ [what]: sql`${at}::timestamptz` })
      .where('lock_id', '=', lockId)
      .where('account_id', '=', accountId)
      .execute();
  },
};
