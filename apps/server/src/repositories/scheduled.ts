import { sql, type Selectable } from 'kysely';
import type { Q, Tx } from '../db';
import type { ScheduledTables } from '../db/schema/scheduled';

export type ScheduledRow = Selectable<ScheduledTables['scheduled_messages']>;
export type ScheduledStatus = ScheduledRow['status'];

/** What a conversation lists: still to go, or failed (shown with its reason until edited or removed). */
const listed: ScheduledStatus[] = ['waiting', 'sending', 'failed'];

/** Scheduled messages (migration 160), always of one account except where the jobs read them by id. */
export const scheduledRepo = {
  /** Holds the account's scheduled messages until the transaction ends (the limit is counted under it). */
  async lockAccount(tx: Tx, accountId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('scheduled:' || ${accountId}::text, 0))`.execute(
      tx,
    );
  },

  async countWaiting(q: Q, accountId: number): Promise<number> {
    const row = await q
      .selectFrom('scheduled_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('status', '=', 'waiting')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Whether the account holds this number now. */
  async holds(q: Q, accountId: number, fullNumber: string): Promise<boolean> {
    const row = await q
      .selectFrom('virtual_numbers')
      .select('account_id')
      .where('full_number', '=', fullNumber)
      .executeTakeFirst();
    return Number(row?.account_id) === accountId;
  },

  async insert(
    q: Q,
    r: {
      accountId: number;
      brand: string;
      own: string;
      other: string;
      text: string;
      sendAt: Date;
      now: Date;
    },
  ): Promise<ScheduledRow> {
    return q
      .insertInto('scheduled_messages')
      .values({
        account_id: r.accountId,
        brand: r.brand,
        own_full_number: r.own,
        other_full_number: r.other,
        text: r.text,
        send_at: r.sendAt,
        retcode: null,
        sent_at: null,
        created_at: r.now,
        updated_at: r.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async byId(q: Q, id: number): Promise<ScheduledRow | undefined> {
    return q.selectFrom('scheduled_messages').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async ofAccount(q: Q, accountId: number, id: number): Promise<ScheduledRow | undefined> {
    return q
      .selectFrom('scheduled_messages')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  },

  /** A conversation's list, by time. */
  async listChat(q: Q, accountId: number, own: string, other: string): Promise<ScheduledRow[]> {
    return q
      .selectFrom('scheduled_messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('own_full_number', '=', own)
      .where('other_full_number', '=', other)
      .where('status', 'in', listed)
      .orderBy('send_at')
      .orderBy('id')
      .limit(500)
      .execute();
  },

  /**
   * An edit: text and time of a waiting (or failed) row whose version is still `version`; the row
   * waits again under the next version. Undefined when it is gone, sending, sent or changed meanwhile.
   */
  async edit(
    q: Q,
    p: { accountId: number; id: number; version: number; text: string; sendAt: Date; now: Date },
  ): Promise<ScheduledRow | undefined> {
    return q
      .updateTable('scheduled_messages')
      .set((eb) => ({
        text: p.text,
        send_at: p.sendAt,
        status: 'waiting',
        version: eb('version', '+', 1),
        retcode: null,
        retmsg: '',
        updated_at: p.now,
      }))
      .where('id', '=', p.id)
      .where('account_id', '=', p.accountId)
      .where('version', '=', p.version)
      .where('status', 'in', ['waiting', 'failed'])
      .returningAll()
      .executeTakeFirst();
  },

  /** Cancels a waiting (or removes a failed) row; undefined when it is sending, sent or gone. */
  async cancel(q: Q, accountId: number, id: number, now: Date): Promise<ScheduledRow | undefined> {
    return q
      .updateTable('scheduled_messages')
      .set({ status: 'cancelled', updated_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('status', 'in', ['waiting', 'failed'])
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * The send's claim, one conditional UPDATE: the row of this version, due, waiting → sending. A
   * row already sending (a try that died before it recorded the outcome) is taken again: the send
   * path's duplicate guard (smsId `sch-<id>`) makes that try store and charge nothing twice.
   */
  async claim(q: Q, id: number, version: number, now: Date): Promise<ScheduledRow | undefined> {
    return q
      .updateTable('scheduled_messages')
      .set({ status: 'sending', updated_at: now })
      .where('id', '=', id)
      .where('version', '=', version)
      .where('status', 'in', ['waiting', 'sending'])
      .where('send_at', '<=', now)
      .returningAll()
      .executeTakeFirst();
  },

  /** The outcome of a claimed row (only while it is sending). */
  async finish(
    q: Q,
    id: number,
    o: { status: 'sent' | 'failed'; retcode: number | null; retmsg: string; now: Date },
  ): Promise<ScheduledRow | undefined> {
    return q
      .updateTable('scheduled_messages')
      .set({
        status: o.status,
        retcode: o.retcode,
        retmsg: o.retmsg,
        sent_at: o.status === 'sent' ? o.now : null,
        updated_at: o.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .returningAll()
      .executeTakeFirst();
  },

  /** Waiting rows from an own number, made due now (the dev route: E2E cannot wait for a real minute). */
  async makeDue(q: Q, own: string, now: Date): Promise<{ id: number; version: number }[]> {
    return q
      .updateTable('scheduled_messages')
      .set({ send_at: now, updated_at: now })
      .where('own_full_number', '=', own)
      .where('status', '=', 'waiting')
      .returning(['id', 'version'])
      .execute();
  },
};
