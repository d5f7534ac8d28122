import { sql } from 'kysely';
import type { Q } from '../db';

export interface PushSubscriptionRow {
  id: number;
  accountId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  device: string;
  lang: 'en' | 'zh';
  previews: boolean;
  createdAt: Date;
  lastSentAt: Date | null;
}

const cols = [
  'id',
  'account_id as accountId',
  'endpoint',
  'p256dh',
  'auth',
  'device',
  'lang',
  'previews',
  'created_at as createdAt',
  'last_sent_at as lastSentAt',
] as const;

type Raw = Omit<PushSubscriptionRow, 'lang'> & { lang: string };
const row = (r: Raw): PushSubscriptionRow => ({ ...r, lang: r.lang === 'zh' ? 'zh' : 'en' });

/** Migration 120 (issue 23): the VAPID pair, push subscriptions, the low-balance mark. */
export const pushRepo = {
  async vapid(q: Q): Promise<{ publicKey: string; privateKey: string } | null> {
    const r = await q
      .selectFrom('push_vapid')
      .select(['public_key as publicKey', 'private_key as privateKey'])
      .where('id', '=', 1)
      .executeTakeFirst();
    return r ?? null;
  },

  /** Keeps the first pair written (two servers starting at once agree on one). */
  async insertVapid(q: Q, keys: { publicKey: string; privateKey: string }): Promise<void> {
    await q
      .insertInto('push_vapid')
      .values({ id: 1, public_key: keys.publicKey, private_key: keys.privateKey })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  },

  async ofAccount(q: Q, accountId: number): Promise<PushSubscriptionRow[]> {
    const rows = await q
      .selectFrom('push_subscriptions')
      .select(cols)
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    return rows.map(row);
  },

  async byId(q: Q, id: number): Promise<PushSubscriptionRow | null> {
    const r = await q.selectFrom('push_subscriptions').select(cols).where('id', '=', id).executeTakeFirst();
    return r ? row(r) : null;
  },

  async count(q: Q, accountId: number): Promise<number> {
    const r = await q
      .selectFrom('push_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  /** One row per endpoint: subscribing it again updates it (and moves it to this account). */
  async upsert(
    q: Q,
    s: {
      accountId: number;
      endpoint: string;
      p256dh: string;
      auth: string;
      device: string;
      lang: 'en' | 'zh';
      previews: boolean;
    },
  ): Promise<PushSubscriptionRow> {
    const values = {
      account_id: s.accountId,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      device: s.device,
      lang: s.lang,
      previews: s.previews,
    };
    const r = await q
      .insertInto('push_subscriptions')
      .values(values)
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          account_id: s.accountId,
          p256dh: s.p256dh,
          auth: s.auth,
          device: s.device,
          lang: s.lang,
          previews: s.previews,
        }),
      )
      .returning(cols)
      .executeTakeFirstOrThrow();
    return row(r);
  },

  async setPreviews(q: Q, accountId: number, id: number, previews: boolean) {
    const r = await q
      .updateTable('push_subscriptions')
      .set({ previews })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returning(cols)
      .executeTakeFirst();
    return r ? row(r) : null;
  },

  async remove(q: Q, accountId: number, id: number): Promise<boolean> {
    const r = await q
      .deleteFrom('push_subscriptions')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  /** The push service said the subscription is gone (404/410). */
  async removeGone(q: Q, id: number, endpoint: string): Promise<void> {
    await q.deleteFrom('push_subscriptions').where('id', '=', id).where('endpoint', '=', endpoint).execute();
  },

  async sent(q: Q, id: number, at: Date): Promise<void> {
    await q.updateTable('push_subscriptions').set({ last_sent_at: at }).where('id', '=', id).execute();
  },

  /** A code app's name in both languages (code_apps). */
  async appName(q: Q, app: string): Promise<{ en: string; zh: string } | null> {
    const r = await q
      .selectFrom('code_apps')
      .select(['name_en as en', 'name_zh as zh'])
      .where('app', '=', app)
      .executeTakeFirst();
    return r ?? null;
  },

  /** The name of the account's contact with this number, if any. */
  async contactName(q: Q, accountId: number, fullNumber: string): Promise<string | null> {
    const { rows } = await sql<{ name: string }>`
      SELECT book->>'name' AS name FROM contacts
      WHERE account_id = ${accountId}
        AND book->'phoneList' @> ${JSON.stringify([{ phone: fullNumber }])}::jsonb
      ORDER BY date DESC LIMIT 1`.execute(q);
    return rows[0]?.name ?? null;
  },

  /**
   * The balance against the low-balance line: true once when it falls below (the mark is set), false
   * otherwise; at or above the line the mark is cleared.
   */
  async balanceCrossed(q: Q, accountId: number, below: boolean): Promise<boolean> {
    if (!below) {
      await q.deleteFrom('push_balance_low').where('account_id', '=', accountId).execute();
      return false;
    }
    const r = await q
      .insertInto('push_balance_low')
      .values({ account_id: accountId })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .returning('account_id')
      .executeTakeFirst();
    return !!r;
  },
};
