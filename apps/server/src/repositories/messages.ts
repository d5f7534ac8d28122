import type { Direction, MessageType, Minor, SmsRef } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import { rateSubquery } from './rates';

export interface MessageRow {
  id: number;
  accountId: number;
  ownFullNumber: string;
  ownTelCode: string;
  otherFullNumber: string;
  otherTelCode: string;
  direction: Direction;
  type: MessageType;
  text: string;
  media: string;
  status: 0 | 1 | 2;
  retcode: number | null;
  retmsg: string | null;
  highlightTarget: string;
  highlightText: string;
  smsId: string;
  date: number;
  charge: Minor;
  segments: number;
  carrier: string | null;
  carrierId: string | null;
  stt: string | null;
  sttStatus: number | null;
  deleted: boolean;
}

const cols = [
  'id',
  'account_id as accountId',
  'own_full_number as ownFullNumber',
  'own_tel_code as ownTelCode',
  'other_full_number as otherFullNumber',
  'other_tel_code as otherTelCode',
  'direction',
  'type',
  'text',
  'media',
  'status',
  'retcode',
  'retmsg',
  'highlight_target as highlightTarget',
  'highlight_text as highlightText',
  'sms_id as smsId',
  'date',
  'charge',
  'segments',
  'carrier',
  'carrier_id as carrierId',
  'stt',
  'stt_status as sttStatus',
  'deleted',
] as const;
const mCols = cols.map((c) => `m.${c}` as `m.${typeof c}`);

export interface NewMessage {
  accountId: number;
  ownFullNumber: string;
  ownTelCode: string;
  otherFullNumber: string;
  otherTelCode: string;
  direction: Direction;
  type: MessageType;
  text: string;
  media: string;
  status: 0 | 1 | 2;
  smsId: string;
  charge: Minor;
  segments: number;
  carrier?: string | null;
  carrierId?: string | null;
  highlightTarget?: string;
  highlightText?: string;
  /** The wanted date (default now); the stored one is later when the conversation already has it. */
  date?: number;
}

export const messagesRepo = {
  async bySmsId(q: Q, accountId: number, smsId: string): Promise<MessageRow | null> {
    return (
      (await q
        .selectFrom('messages')
        .select(cols)
        .where('account_id', '=', accountId)
        .where('sms_id', '=', smsId)
        .executeTakeFirst()) ?? null
    );
  },

  async byId(q: Q, id: number): Promise<MessageRow | null> {
    return (await q.selectFrom('messages').select(cols).where('id', '=', id).executeTakeFirst()) ?? null;
  },

  async byIds(q: Q, ids: readonly number[]): Promise<MessageRow[]> {
    if (!ids.length) return [];
    return q
      .selectFrom('messages')
      .select(cols)
      .where('id', 'in', [...ids])
      .execute();
  },

  async byCarrierId(q: Q, carrierId: string): Promise<MessageRow | null> {
    const row = await q
      .selectFrom('messages')
      .select(cols)
      .where('carrier_id', '=', carrierId)
      .where('direction', '=', 'out')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row ?? null;
  },

  /**
   * Stores a message in the caller's transaction. Its date is distinct and increasing within the
   * conversation: the conversation row hands it out under a row lock (now, or one past the newest).
   * The caller makes sure the smsId is new for the account (the unique index refuses a twin).
   */
  async insert(tx: Tx, m: NewMessage): Promise<MessageRow> {
    const { id } = await tx
      .selectNoFrom(sql<number>`nextval('messages_id_seq')::bigint`.as('id'))
      .executeTakeFirstOrThrow();
    const wanted = m.date ?? Date.now();
    const chat = await tx
      .insertInto('chats')
      .values({
        account_id: m.accountId,
        own_full_number: m.ownFullNumber,
        other_full_number: m.otherFullNumber,
        max_date: wanted,
        last_date: wanted,
        last_message_id: id,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'own_full_number', 'other_full_number']).doUpdateSet({
          max_date: sql`GREATEST(chats.max_date + 1, EXCLUDED.max_date)`,
          last_date: sql`GREATEST(chats.max_date + 1, EXCLUDED.max_date)`,
          last_message_id: (eb) => eb.ref('excluded.last_message_id'),
        }),
      )
      .returning('max_date as date')
      .executeTakeFirstOrThrow();
    return tx
      .insertInto('messages')
      .values({
        id,
        account_id: m.accountId,
        own_full_number: m.ownFullNumber,
        own_tel_code: m.ownTelCode,
        other_full_number: m.otherFullNumber,
        other_tel_code: m.otherTelCode,
        direction: m.direction,
        type: m.type,
        text: m.text,
        media: m.media,
        status: m.status,
        sms_id: m.smsId,
        date: chat.date,
        charge: m.charge,
        segments: m.segments,
        carrier: m.carrier ?? null,
        carrier_id: m.carrierId ?? null,
        highlight_target: m.highlightTarget ?? '',
        highlight_text: m.highlightText ?? '',
      })
      .returning(cols)
      .executeTakeFirstOrThrow();
  },

  /**
   * The final state of an outgoing message; null when it does not apply: 'sent' only to a pending
   * message, 'failed' to one not failed yet (a late failure report overrides 'sent').
   */
  async setOutcome(
    q: Q,
    id: number,
    o: {
      status: 0 | 2;
      retcode?: number | null;
      retmsg?: string | null;
      carrier?: string | null;
      carrierId?: string | null;
    },
  ): Promise<MessageRow | null> {
    let query = q
      .updateTable('messages')
      .set((eb) => ({
        status: o.status,
        retcode: o.retcode ?? null,
        retmsg: o.retmsg ?? null,
        carrier: o.carrier != null ? eb.val(o.carrier) : eb.ref('carrier'),
        carrier_id: o.carrierId != null ? eb.val(o.carrierId) : eb.ref('carrier_id'),
      }))
      .where('id', '=', id);
    query = o.status === 0 ? query.where('status', '=', 1) : query.where('status', '<>', 2);
    return (await query.returning(cols).executeTakeFirst()) ?? null;
  },

  /** The newest message of every conversation whose newest message is at or after `from` (epoch ms). */
  async chatList(q: Q, accountId: number, from: number): Promise<MessageRow[]> {
    return q
      .selectFrom('chats as c')
      .innerJoin('messages as m', 'm.id', 'c.last_message_id')
      .select(mCols)
      .where('c.account_id', '=', accountId)
      .where('c.last_message_id', 'is not', null)
      .where('c.last_date', '>=', from)
      .orderBy('c.last_date', 'desc')
      .execute() as Promise<MessageRow[]>;
  },

  /** A page of a conversation, newest first, within [from, to) and the optional bounds. */
  async dialog(
    q: Q,
    p: {
      accountId: number;
      own: string;
      other: string;
      from: number;
      to: number;
      before?: number;
      after?: number;
      limit: number;
    },
  ): Promise<MessageRow[]> {
    return q
      .selectFrom('messages')
      .select(cols)
      .where('account_id', '=', p.accountId)
      .where('own_full_number', '=', p.own)
      .where('other_full_number', '=', p.other)
      .where('deleted', '=', false)
      .where('date', '>=', p.from)
      .where('date', '<', Math.min(p.to, p.before ?? Number.MAX_SAFE_INTEGER))
      .where('date', '>', p.after ?? -1)
      .orderBy('date', 'desc')
      .limit(p.limit)
      .execute();
  },

  /** Marks messages deleted; returns how many were (still) there; the conversations touched are refreshed. */
  async deleteRefs(tx: Tx, accountId: number, refs: SmsRef[]): Promise<number> {
    if (!refs.length) return 0;
    const rows = await tx
      .updateTable('messages')
      .set({ deleted: true })
      .where('account_id', '=', accountId)
      .where('deleted', '=', false)
      .where(
        sql`(sms_id, date)`,
        'in',
        sql`(SELECT * FROM unnest(${sql.val(refs.map((r) => r.smsId))}::text[], ${sql.val(refs.map((r) => r.date))}::bigint[]))`,
      )
      .returning(['own_full_number as own', 'other_full_number as other'])
      .execute();
    const chats = new Map(rows.map((r) => [`${r.own}-${r.other}`, r]));
    for (const c of chats.values()) await messagesRepo.refreshChat(tx, accountId, c.own, c.other);
    return rows.length;
  },

  async deleteChat(tx: Tx, accountId: number, own: string, other: string): Promise<number> {
    const rows = await tx
      .updateTable('messages')
      .set({ deleted: true })
      .where('account_id', '=', accountId)
      .where('own_full_number', '=', own)
      .where('other_full_number', '=', other)
      .where('deleted', '=', false)
      .returning('id')
      .execute();
    if (rows.length) await messagesRepo.refreshChat(tx, accountId, own, other);
    return rows.length;
  },

  /** Points a conversation at its newest message not deleted (none: it leaves the chat list). */
  async refreshChat(q: Q, accountId: number, own: string, other: string): Promise<void> {
    await q
      .updateTable('chats')
      .set({
        last_message_id: (eb) =>
          eb
            .selectFrom('messages')
            .select('id')
            .where('account_id', '=', accountId)
            .where('own_full_number', '=', own)
            .where('other_full_number', '=', other)
            .where('deleted', '=', false)
            .orderBy('date', 'desc')
            .limit(1),
        last_date: (eb) =>
          eb
            .selectFrom('messages')
            .select('date')
            .where('account_id', '=', accountId)
            .where('own_full_number', '=', own)
            .where('other_full_number', '=', other)
            .where('deleted', '=', false)
            .orderBy('date', 'desc')
            .limit(1),
      })
      .where('account_id', '=', accountId)
      .where('own_full_number', '=', own)
      .where('other_full_number', '=', other)
      .execute();
  },

  async setStt(
    q: Q,
    accountId: number,
    smsId: string,
    s: { stt: string | null; sttStatus: number },
  ): Promise<void> {
    await q
      .updateTable('messages')
      .set({ stt: s.stt, stt_status: s.sttStatus })
      .where('account_id', '=', accountId)
      .where('sms_id', '=', smsId)
      .execute();
  },
};

/** What the sending rules need, read in one statement. */
export interface SendFacts {
  /** The sender number's holder, or null when nobody holds it. */
  holderId: number | null;
  telCode: string | null;
  country: string | null;
  tollFree: boolean | null;
  tollFreeVerified: boolean | null;
  /** The sender's balance (ten-thousandths). */
  balance: Minor;
  /** Whether this own number already has a conversation with the destination. */
  known: boolean;
  /** The destination's rates (rates table, kinds sms and mms; null when no row, not even '*', exists). */
  sms: Minor | null;
  mms: Minor | null;
}

export const sendFactsRepo = {
  async read(
    q: Q,
    p: { accountId: number; from: string; to: string; currency: string; country: string | null },
  ): Promise<SendFacts> {
    // the sender's account always exists (the caller is signed in); the number may be anyone's or nobody's
    const row = await q
      .selectFrom('accounts as acc')
      .leftJoin('virtual_numbers as v', (join) => join.on('v.full_number', '=', p.from))
      .select((eb) => [
        'v.account_id as holderId',
        'v.tel_code as telCode',
        'v.country',
        'v.toll_free as tollFree',
        'v.toll_free_verified as tollFreeVerified',
        'acc.balance',
        eb
          .exists(
            eb
              .selectFrom('chats')
              .select('chats.account_id')
              .where('chats.account_id', '=', p.accountId)
              .where('chats.own_full_number', '=', p.from)
              .where('chats.other_full_number', '=', p.to),
          )
          .as('known'),
        rateSubquery(q, { currency: p.currency, kind: 'sms', country: p.country }).as('sms'),
        rateSubquery(q, { currency: p.currency, kind: 'mms', country: p.country }).as('mms'),
      ])
      .where('acc.id', '=', p.accountId)
      .executeTakeFirstOrThrow();
    return row as SendFacts;
  },
};
