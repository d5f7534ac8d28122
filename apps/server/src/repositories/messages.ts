import type { Direction, MessageType, Minor, SmsRef } from '@numa/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Q, Tx } from '../db';
import { prepared } from '../db/prepared';
import type { IdemKey } from '../lib/idem';
import type { ClaimedJobRow } from './jobs';
import { billInsert, type BalanceChange } from './ledger';
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
  /** When it was delivered (epoch ms), null until then (migration 110). */
  deliveredAt: number | null;
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
  'delivered_at as deliveredAt',
  'deleted',
] as const;

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
  /** A voice message's transcript and speech-to-text status, when known on arrival. */
  stt?: string | undefined;
  sttStatus?: number | undefined;
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
        ...(m.stt !== undefined ? { stt: m.stt } : {}),
        ...(m.sttStatus !== undefined ? { stt_status: m.sttStatus } : {}),
      })
      .returning(cols)
      .executeTakeFirstOrThrow();
  },

  /**
   * Records the carrier's id on an outgoing message found at the carrier after a hand-over whose
   * outcome was unknown, in one statement: the first of `candidates` (the carrier's records that may
   * be it, oldest first) that no other outgoing message holds; null when every one is another
   * message's (then this one was not handed over). Two messages of the same text to the same number
   * recovered at once cannot take the same record: the unique index of migration 081 refuses the
   * second (it throws, and its job tries again).
   */
  async adoptCarrierId(q: Q, id: number, candidates: readonly string[]): Promise<string | null> {
    if (!candidates.length) return null;
    const { rows } = await sql<{ carrierId: string }>`
      UPDATE messages SET carrier_id = pick.c
        FROM (SELECT t.c FROM unnest(${sql.val([...candidates])}::text[]) WITH ORDINALITY AS t (c, i)
               WHERE NOT EXISTS (SELECT 1 FROM messages o
                                  WHERE o.carrier_id = t.c AND o.direction = 'out' AND o.id <> ${id})
               ORDER BY t.i LIMIT 1) pick
       WHERE messages.id = ${id}
      RETURNING messages.carrier_id AS "carrierId"`.execute(q);
    return rows[0]?.carrierId ?? null;
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

  /**
   * The carrier delivered an outgoing message (its delivery report): `delivered_at` is set once, and a
   * pending message becomes 'sent' with it; null when it does not apply (failed, or delivered before).
   */
  async setDelivered(q: Q, id: number, at: number): Promise<MessageRow | null> {
    return (
      (await q
        .updateTable('messages')
        .set({ delivered_at: at, status: 0 })
        .where('id', '=', id)
        .where('direction', '=', 'out')
        .where('status', '<>', 2)
        .where('delivered_at', 'is', null)
        .returning(cols)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * The chat list (contract ChatListItem[]) as JSON text: the newest message of every conversation
   * whose newest message is at or after `from` (epoch ms), newest first — the conversation rows joined
   * to their last message by primary key, only the columns the answer holds (the national numbers
   * too), serialized by the database with row_to_json into one text field. Thousands of chats cross as
   * one value that goes into the answer as it is: on the embedded PGlite, decoding rows field by field
   * (or JSON.parse, mapping and stringify again in JS) cost more than the query, and row_to_json over
   * a subquery is the cheapest of the database's JSON builders there.
   *
   * With the account's validator (`version`: count and sum of its conversation rows' versions,
   * migration 055) in the same statement and snapshot: when it equals `known`, the list is not built
   * and `list` is null (the caller's copy built under `known` is current).
   */
  async chatListJson(
    q: Q,
    accountId: number,
    from: number,
    known: string | null = null,
  ): Promise<{ version: string; list: string | null }> {
    const { rows } = await sql<{ version: string; list: string | null }>`
      WITH v AS (
        SELECT count(*) || ':' || coalesce(sum(version), 0) AS version FROM chats WHERE account_id = ${accountId}
      )
      SELECT v.version, CASE WHEN v.version IS DISTINCT FROM ${known}::text THEN (
        SELECT coalesce(json_agg(r ORDER BY r.date DESC)::text, '[]') FROM (
          SELECT m.own_full_number AS "ownFullNumber", m.own_tel_code AS "ownTelCode",
                 ${nationalSql(sql.ref('m.own_full_number'), sql.ref('m.own_tel_code'))} AS "ownNumber",
                 m.other_full_number AS "otherFullNumber", m.other_tel_code AS "otherTelCode",
                 ${nationalSql(sql.ref('m.other_full_number'), sql.ref('m.other_tel_code'))} AS "otherNumber",
                 m.date, m.text, m.media, m.type, m.sms_id AS "smsId", m.direction
            FROM chats c JOIN messages m ON m.id = c.last_message_id
           WHERE c.account_id = ${accountId} AND c.last_message_id IS NOT NULL AND c.last_date >= ${from}
        ) r
      ) END AS list
      FROM v
    `.execute(q);
    const row = rows[0]!;
    return { version: row.version, list: row.list };
  },

  /**
   * A conversation's validator: its row's version (migration 055), moved by every write of the row,
   * which every change of one of its messages makes (migration 056); null when there is no row.
   */
  async conversationVersion(q: Q, accountId: number, own: string, other: string): Promise<string | null> {
    const { rows } = await sql<{ version: string }>`
      SELECT version::text AS version FROM chats
       WHERE account_id = ${accountId} AND own_full_number = ${own} AND other_full_number = ${other}
    `.execute(q);
    return rows[0]?.version ?? null;
  },

  /**
   * A page of a conversation, newest first, within [from, to) and the optional bounds, as JSON text
   * of the contract's Message[] (built by the database like the chat list: only the answer's columns,
   * the speech-to-text fields on voice messages only), with the date of the page's last message and
   * whether the range holds older ones (`more`: one index probe below that date).
   */
  async dialogJson(
    q: Q,
    p: {
      accountId: number;
      own: string;
      other: string;
      from: number;
      to: number;
      before?: number;
      after?: number;
      pageSize: number;
    },
  ): Promise<{ list: string; more: boolean; lastDate: number | null }> {
    const where = sql`m.account_id = ${p.accountId} AND m.own_full_number = ${p.own} AND m.other_full_number = ${p.other}
      AND m.deleted = false AND m.date >= ${p.from} AND m.date > ${p.after ?? -1}`;
    const { rows } = await sql<{ list: string; lastDate: number | null; more: boolean }>`
      SELECT pg.list, pg."lastDate",
             EXISTS (SELECT 1 FROM messages m WHERE ${where} AND m.date < pg."lastDate") AS more
        FROM (
          SELECT coalesce(json_strip_nulls(json_agg(r ORDER BY r.date DESC))::text, '[]') AS list,
                 min(r.date) AS "lastDate"
            FROM (
              SELECT m.sms_id AS "smsId", m.date, m.type, m.text, m.media, m.direction, m.status,
                     m.highlight_target AS "highlightTarget", m.highlight_text AS "highlightText",
                     CASE WHEN m.type = 'voicemail' THEN m.stt END AS stt,
                     CASE WHEN m.type = 'voicemail' THEN m.media <> '' END AS "getStt",
                     CASE WHEN m.type = 'voicemail' THEN coalesce(m.stt_status, 0) END AS "sttStatus",
                     CASE WHEN m.delivered_at IS NOT NULL AND m.direction = 'out' THEN true END AS delivered
                FROM messages m
               WHERE ${where} AND m.date < ${Math.min(p.to, p.before ?? Number.MAX_SAFE_INTEGER)}
               ORDER BY m.date DESC
               LIMIT ${p.pageSize}
            ) r
        ) pg
    `.execute(q);
    const row = rows[0]!;
    return { list: row.list, more: row.more, lastDate: row.lastDate };
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
  /** Whether the account stored a message of this smsId before (a resend). */
  sentBefore: boolean;
  /** The destination's rates (rates table, kinds sms and mms; null when no row, not even '*', exists). */
  sms: Minor | null;
  mms: Minor | null;
}

interface FactsParams extends Record<string, unknown> {
  accountId: number;
  from: string;
  to: string;
  currency: string;
  /** ISO country of the destination, or '*' (only the '*' rates apply) */
  country: string;
  smsId: string;
}

/** The rules' facts as a query (the rules' read, and the checked send statement's first CTE). */
const factsQuery = (q: Q, p: FactsParams) =>
  // the sender's account always exists (the caller is signed in); the number may be anyone's or nobody's
  q
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
      eb
        .exists(
          eb
            .selectFrom('messages')
            .select('messages.id')
            .where('messages.account_id', '=', p.accountId)
            .where('messages.sms_id', '=', p.smsId),
        )
        .as('sentBefore'),
      rateSubquery(q, { currency: p.currency, kind: 'sms', country: p.country }).as('sms'),
      rateSubquery(q, { currency: p.currency, kind: 'mms', country: p.country }).as('mms'),
    ])
    .where('acc.id', '=', p.accountId);

/** The rules' read, built and compiled once (db/prepared.ts). */
const factsStatement = prepared(factsQuery);

export const sendFactsRepo = {
  async read(
    q: Q,
    p: {
      accountId: number;
      from: string;
      to: string;
      currency: string;
      country: string | null;
      smsId: string;
    },
  ): Promise<SendFacts> {
    const [row] = await factsStatement(q, { ...p, country: p.country ?? '*' });
    if (!row) throw new Error(`account ${p.accountId} not found`);
    return row as SendFacts;
  },
};

/** The durable work of one send (services/chats/send.ts), written by one statement. */
export interface DurableSend {
  /** The sender's bill (ledger.billInsert: its charge, type, options and idempotency key). */
  bill: BalanceChange;
  message: Omit<NewMessage, 'status' | 'date' | 'carrierId' | 'highlightTarget' | 'highlightText'>;
  /**
   * The abuse-guard event of a first message to a new number (or null): recorded only when this
   * statement is the one that starts the conversation, so concurrent first sends count once.
   */
  rateEventKey: string | null;
  /** The carrier job, born claimed by this server (Jobs.bornClaimed), written when the destination is off the platform. */
  job: { name: string; runAt: Date; maxAttempts: number; worker: string; until: Date };
  /** The name recorded as the carrier of a delivery between two numbers of the platform. */
  platformCarrier: string;
  /**
   * The checked send (an SMS in a conversation the sender already has, at a rate seen before): the
   * statement reads the rules' facts itself and writes nothing unless they are the ordinary ones —
   * the sender holds the own number (its tel code comes from there; `message.ownTelCode` is not
   * used), not a toll-free number waiting for registration, the conversation exists, the smsId is
   * new, the balance is above zero and the destination's SMS rate is still `rate`. Anything else:
   * `written: false`, and the caller runs the rules (services/chats/rules.ts) to learn why.
   */
  checks?: { currency: string; country: string; rate: Minor } | undefined;
}

export type DurableOutcome =
  /** The bill was not written (its key was applied before, or the balance fell short meanwhile): nothing was. */
  | { written: false }
  | {
      written: true;
      /** The sender's copy: 'sent' when delivered on the platform, 'pending' with `job` otherwise. */
      sent: MessageRow;
      /** The recipient's copy, when the destination is held on the platform. */
      received: MessageRow | null;
      job: ClaimedJobRow | null;
      /** The sender's balance as the bill left it. */
      balance: Minor;
    };

const jsonCols = sql.raw(
  cols
    .map((c) => {
      const [col, alias] = c.split(' as ');
      return `'${alias ?? col}', ${col}`;
    })
    .join(', '),
);

/**
 * The durable part of a send in ONE statement (one round trip, one implicit transaction, whether
 * `q` is the root or an open transaction): the bill (the ledger's own INSERT as a data-modifying CTE;
 * its triggers move the balance and refuse a negative one), the sender's copy and its conversation
 * row, and then either the recipient's copy and conversation when the destination number is held on
 * the platform (delivered: both copies 'sent'), or the carrier job born claimed for the destination
 * off the platform (the sender's copy 'pending'). Everything hangs off the bill's row: when the bill
 * is not written (repeated key, balance short), nothing is. Dates are handed out by the conversation
 * rows as in `insert` (distinct, increasing within a conversation).
 */
export async function sendDurable(q: Q, s: DurableSend): Promise<DurableOutcome> {
  const m = s.message;
  const b = s.bill;
  const values: DurableParams = {
    accountId: m.accountId,
    billType: b.type,
    billCharge: b.charge,
    billOptions: JSON.stringify(b.options ?? {}),
    billKey: b.idempotencyKey ?? null,
    own: m.ownFullNumber,
    ownTel: m.ownTelCode,
    other: m.otherFullNumber,
    otherTel: m.otherTelCode,
    type: m.type,
    text: m.text,
    media: m.media,
    smsId: m.smsId,
    charge: m.charge,
    segments: m.segments,
    carrier: m.carrier ?? null,
    platformCarrier: s.platformCarrier,
    now: Date.now(),
    rateEventKey: s.rateEventKey,
    jobName: s.job.name,
    runAt: s.job.runAt,
    maxAttempts: s.job.maxAttempts,
    worker: s.job.worker,
    until: s.job.until,
  };
  // the bill's refusal of a charge below zero is part of the text: one text per sign of the charge
  const c = s.checks;
  const [row] = c
    ? await (b.charge < 0 ? checkedCharging : checkedFree)(q, { ...values, ...c })
    : await (b.charge < 0 ? durableCharging : durableFree)(q, {
        ...values,
        currency: '',
        country: '',
        rate: 0 as Minor,
      });
  if (!row?.sent) return { written: false };
  return {
    written: true,
    sent: toRow(row.sent),
    received: row.received ? toRow(row.received) : null,
    job: (row.job as ClaimedJobRow | null) ?? null,
    balance: row.balance!,
  };
}

interface DurableParams extends Record<string, unknown> {
  accountId: number;
  billType: number;
  billCharge: Minor;
  billOptions: string;
  billKey: string | null;
  own: string;
  ownTel: string;
  other: string;
  otherTel: string;
  type: MessageType;
  text: string;
  media: string;
  smsId: string;
  charge: Minor;
  segments: number;
  carrier: string | null;
  platformCarrier: string;
  now: number;
  rateEventKey: string | null;
  jobName: string;
  runAt: Date;
  maxAttempts: number;
  worker: string;
  until: Date;
}

interface DurableRow {
  sent: Record<string, unknown> | null;
  received: Record<string, unknown> | null;
  job: Record<string, unknown> | null;
  balance: Minor | null;
}

interface CheckedParams extends DurableParams {
  currency: string;
  country: string;
  rate: Minor;
}

/**
 * `sendDurable`'s statement, built and compiled once per sign of the charge and with or without the
 * rules' checks (db/prepared.ts).
 */
function durableStatement(negative: boolean, checked: boolean) {
  return prepared((q, p: CheckedParams) => {
    // the checked statement: the rules' facts first, and the bill (everything hangs off it) only when they are ordinary
    const facts = checked
      ? sql`f AS (${factsQuery(q, { accountId: p.accountId, from: p.own, to: p.other, currency: p.currency, country: p.country, smsId: p.smsId })}),
    ok AS (
      SELECT f."telCode" FROM f
       WHERE f."holderId" = ${p.accountId} AND f.known AND NOT f."sentBefore" AND f.balance > 0
         AND NOT (coalesce(f."tollFree", false) AND NOT coalesce(f."tollFreeVerified", false))
         AND f.sms = ${p.rate}::bigint
    ),`
      : sql``;
    const ownTel = checked ? sql`(SELECT "telCode" FROM ok)` : sql`${p.ownTel}`;
    const bill = billInsert(
      q,
      {
        accountId: p.accountId,
        type: p.billType,
        charge: p.billCharge,
        options: p.billOptions as unknown as object,
        idempotencyKey: p.billKey as IdemKey | undefined,
      },
      negative,
      checked ? sql<boolean>`EXISTS (SELECT 1 FROM ok)` : undefined,
    );
    return sql<DurableRow>`
    WITH ${facts} bill AS (${bill}),
    dest AS (
      SELECT v.account_id, v.full_number, v.tel_code FROM virtual_numbers v WHERE v.full_number = ${p.other}
    ),
    ids AS (SELECT nextval('messages_id_seq')::bigint AS id FROM bill),
    a_chat AS (
      INSERT INTO chats (account_id, own_full_number, other_full_number, max_date, last_date, last_message_id)
      SELECT ${p.accountId}, ${p.own}, ${p.other}, ${p.now}::bigint, ${p.now}::bigint, ids.id FROM ids
      ON CONFLICT (account_id, own_full_number, other_full_number) DO UPDATE SET
        max_date = GREATEST(chats.max_date + 1, EXCLUDED.max_date),
        last_date = GREATEST(chats.max_date + 1, EXCLUDED.max_date),
        last_message_id = EXCLUDED.last_message_id
      RETURNING max_date, (xmax = 0) AS created
    ),
    a_msg AS (
      INSERT INTO messages (id, account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction,
                            type, text, media, status, sms_id, date, charge, segments, carrier, delivered_at)
      SELECT ids.id, ${p.accountId}, ${p.own}, ${ownTel}, ${p.other}, ${p.otherTel}, 'out',
             ${p.type}, ${p.text}, ${p.media},
             CASE WHEN EXISTS (SELECT 1 FROM dest) THEN 0 ELSE 1 END::smallint,
             ${p.smsId}, a_chat.max_date, ${p.charge}::bigint, ${p.segments}::smallint,
             CASE WHEN EXISTS (SELECT 1 FROM dest) THEN ${p.platformCarrier} ELSE ${p.carrier}::text END,
             -- delivered on the platform: the recipient's copy is written by this statement
             CASE WHEN EXISTS (SELECT 1 FROM dest) THEN a_chat.max_date END
        FROM ids, a_chat
      RETURNING *
    ),
    b_ids AS (SELECT nextval('messages_id_seq')::bigint AS id, ids.id AS a_id, dest.* FROM ids, dest),
    b_chat AS (
      INSERT INTO chats (account_id, own_full_number, other_full_number, max_date, last_date, last_message_id)
      SELECT b_ids.account_id, b_ids.full_number, ${p.own}, ${p.now}::bigint, ${p.now}::bigint, b_ids.id FROM b_ids
      ON CONFLICT (account_id, own_full_number, other_full_number) DO UPDATE SET
        max_date = GREATEST(chats.max_date + 1, EXCLUDED.max_date),
        last_date = GREATEST(chats.max_date + 1, EXCLUDED.max_date),
        last_message_id = EXCLUDED.last_message_id
      RETURNING max_date
    ),
    b_msg AS (
      INSERT INTO messages (id, account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction,
                            type, text, media, status, sms_id, date, charge, segments, carrier)
      SELECT b_ids.id, b_ids.account_id, b_ids.full_number, b_ids.tel_code, ${p.own}, ${ownTel}, 'in',
             ${p.type}, ${p.text}, ${p.media}, 0, 'in:p' || b_ids.a_id, b_chat.max_date, 0, ${p.segments}::smallint,
             ${p.platformCarrier}
        FROM b_ids, b_chat
      RETURNING *
    ),
    rate AS (
      INSERT INTO rate_events (key)
      SELECT ${p.rateEventKey}::text FROM a_chat
       WHERE a_chat.created AND ${p.rateEventKey}::text IS NOT NULL
    ),
    job AS (
      INSERT INTO jobs (name, payload, run_at, max_attempts, dedupe_key, attempts, locked_by, locked_until)
      SELECT ${p.jobName}, jsonb_build_object('messageId', ids.id), ${p.runAt}::timestamptz, ${p.maxAttempts}::int,
             'carrier:' || ids.id, 1, ${p.worker}, ${p.until}::timestamptz
        FROM ids WHERE NOT EXISTS (SELECT 1 FROM dest)
      RETURNING id, name, payload, attempts, max_attempts, last_error
    )
    SELECT (SELECT json_build_object(${jsonCols}) FROM a_msg) AS sent,
           (SELECT json_build_object(${jsonCols}) FROM b_msg) AS received,
           (SELECT json_build_object('id', id, 'name', name, 'payload', payload, 'attempts', attempts,
                                     'maxAttempts', max_attempts, 'lastError', last_error) FROM job) AS job,
           (SELECT "afterBalance" FROM bill) AS balance
  `;
  });
}
const durableCharging = durableStatement(true, false);
const durableFree = durableStatement(false, false);
const checkedCharging = durableStatement(true, true);
const checkedFree = durableStatement(false, true);

/** The national part of a party number in SQL (views.ts nationalOf): the full number less its tel code, or all of it. */
function nationalSql(full: RawBuilder<unknown>, telCode: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`CASE WHEN ${telCode} <> '' AND starts_with(${full}, ${telCode}) THEN substr(${full}, length(${telCode}) + 1) ELSE ${full} END`;
}

/** A message row from json_build_object (bigint columns arrive as JSON numbers already). */
function toRow(j: Record<string, unknown>): MessageRow {
  return j as unknown as MessageRow;
}
