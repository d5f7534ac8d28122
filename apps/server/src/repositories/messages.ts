import type { Direction, MessageType, SmsRef } from '@numa/contract';
import type { Queryable } from '../db';

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
  charge: number;
  segments: number;
  carrier: string | null;
  carrierId: string | null;
  stt: string | null;
  sttStatus: number | null;
  deleted: boolean;
}

const cols = (
  m = '',
) => `${m}id, ${m}account_id AS "accountId", ${m}own_full_number AS "ownFullNumber", ${m}own_tel_code AS "ownTelCode",
  ${m}other_full_number AS "otherFullNumber", ${m}other_tel_code AS "otherTelCode", ${m}direction, ${m}type, ${m}text, ${m}media,
  ${m}status, ${m}retcode, ${m}retmsg, ${m}highlight_target AS "highlightTarget", ${m}highlight_text AS "highlightText",
  ${m}sms_id AS "smsId", ${m}date, ${m}charge, ${m}segments, ${m}carrier, ${m}carrier_id AS "carrierId", ${m}stt,
  ${m}stt_status AS "sttStatus", ${m}deleted`;

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
  charge: number;
  segments: number;
  carrier?: string | null;
  carrierId?: string | null;
  highlightTarget?: string;
  highlightText?: string;
  /** The wanted date (default now); the stored one is later when the conversation already has it. */
  date?: number;
}

export const messagesRepo = {
  async bySmsId(q: Queryable, accountId: number, smsId: string): Promise<MessageRow | null> {
    const [row] = await q.query<MessageRow>(
      `SELECT ${cols()} FROM messages WHERE account_id = $1 AND sms_id = $2`,
      [accountId, smsId],
    );
    return row ?? null;
  },

  async byId(q: Queryable, id: number): Promise<MessageRow | null> {
    const [row] = await q.query<MessageRow>(`SELECT ${cols()} FROM messages WHERE id = $1`, [id]);
    return row ?? null;
  },

  async byCarrierId(q: Queryable, carrierId: string): Promise<MessageRow | null> {
    const [row] = await q.query<MessageRow>(
      `SELECT ${cols()} FROM messages WHERE carrier_id = $1 AND direction = 'out' ORDER BY id LIMIT 1`,
      [carrierId],
    );
    return row ?? null;
  },

  /**
   * Stores a message in the caller's transaction. Its date is distinct and increasing within the
   * conversation: the conversation row hands it out under a row lock (now, or one past the newest).
   * The caller makes sure the smsId is new for the account (the unique index refuses a twin).
   */
  async insert(q: Queryable, m: NewMessage): Promise<MessageRow> {
    const [{ id }] = (await q.query<{ id: number }>(`SELECT nextval('messages_id_seq')::bigint AS id`)) as [
      { id: number },
    ];
    const wanted = m.date ?? Date.now();
    const [chat] = await q.query<{ date: number }>(
      `INSERT INTO chats (account_id, own_full_number, other_full_number, max_date, last_date, last_message_id)
       VALUES ($1, $2, $3, $4, $4, $5)
       ON CONFLICT (account_id, own_full_number, other_full_number) DO UPDATE
         SET max_date = GREATEST(chats.max_date + 1, EXCLUDED.max_date),
             last_date = GREATEST(chats.max_date + 1, EXCLUDED.max_date),
             last_message_id = EXCLUDED.last_message_id
       RETURNING max_date AS date`,
      [m.accountId, m.ownFullNumber, m.otherFullNumber, wanted, id],
    );
    const [row] = await q.query<MessageRow>(
      `INSERT INTO messages (id, account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction, type,
                             text, media, status, sms_id, date, charge, segments, carrier, carrier_id, highlight_target, highlight_text)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
       RETURNING ${cols()}`,
      [
        id,
        m.accountId,
        m.ownFullNumber,
        m.ownTelCode,
        m.otherFullNumber,
        m.otherTelCode,
        m.direction,
        m.type,
        m.text,
        m.media,
        m.status,
        m.smsId,
        chat!.date,
        m.charge,
        m.segments,
        m.carrier ?? null,
        m.carrierId ?? null,
        m.highlightTarget ?? '',
        m.highlightText ?? '',
      ],
    );
    return row!;
  },

  /**
   * The final state of an outgoing message; null when it does not apply: 'sent' only to a pending
   * message, 'failed' to one not failed yet (a late failure report overrides 'sent').
   */
  async setOutcome(
    q: Queryable,
    id: number,
    o: {
      status: 0 | 2;
      retcode?: number | null;
      retmsg?: string | null;
      carrier?: string | null;
      carrierId?: string | null;
    },
  ): Promise<MessageRow | null> {
    const [row] = await q.query<MessageRow>(
      `UPDATE messages SET status = $2, retcode = $3, retmsg = $4, carrier = COALESCE($5, carrier), carrier_id = COALESCE($6, carrier_id)
        WHERE id = $1 AND (CASE WHEN $2::smallint = 0 THEN status = 1 ELSE status <> 2 END) RETURNING ${cols()}`,
      [id, o.status, o.retcode ?? null, o.retmsg ?? null, o.carrier ?? null, o.carrierId ?? null],
    );
    return row ?? null;
  },

  /** The newest message of every conversation whose newest message is at or after `from` (epoch ms). */
  async chatList(q: Queryable, accountId: number, from: number): Promise<MessageRow[]> {
    return q.query<MessageRow>(
      `SELECT ${cols('m.')} FROM chats c JOIN messages m ON m.id = c.last_message_id
        WHERE c.account_id = $1 AND c.last_message_id IS NOT NULL AND c.last_date >= $2
        ORDER BY c.last_date DESC`,
      [accountId, from],
    );
  },

  /** A page of a conversation, newest first, within [from, to) and the optional bounds. */
  async dialog(
    q: Queryable,
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
    return q.query<MessageRow>(
      `SELECT ${cols()} FROM messages
        WHERE account_id = $1 AND own_full_number = $2 AND other_full_number = $3 AND NOT deleted
          AND date >= $4 AND date < $5 AND date > $6
        ORDER BY date DESC LIMIT $7`,
      [
        p.accountId,
        p.own,
        p.other,
        p.from,
        Math.min(p.to, p.before ?? Number.MAX_SAFE_INTEGER),
        p.after ?? -1,
        p.limit,
      ],
    );
  },

  /** Marks messages deleted; returns how many were (still) there, and the conversations touched. */
  async deleteRefs(q: Queryable, accountId: number, refs: SmsRef[]): Promise<number> {
    if (!refs.length) return 0;
    const rows = await q.query<{ own: string; other: string }>(
      `UPDATE messages SET deleted = true
        WHERE account_id = $1 AND NOT deleted
          AND (sms_id, date) IN (SELECT * FROM unnest($2::text[], $3::bigint[]))
        RETURNING own_full_number AS own, other_full_number AS other`,
      [accountId, refs.map((r) => r.smsId), refs.map((r) => r.date)],
    );
    const chats = new Map(rows.map((r) => [`${r.own}-${r.other}`, r]));
    for (const c of chats.values()) await messagesRepo.refreshChat(q, accountId, c.own, c.other);
    return rows.length;
  },

  async deleteChat(q: Queryable, accountId: number, own: string, other: string): Promise<number> {
    const rows = await q.query(
      `UPDATE messages SET deleted = true
        WHERE account_id = $1 AND own_full_number = $2 AND other_full_number = $3 AND NOT deleted RETURNING id`,
      [accountId, own, other],
    );
    if (rows.length) await messagesRepo.refreshChat(q, accountId, own, other);
    return rows.length;
  },

  /** Points a conversation at its newest message not deleted (none: it leaves the chat list). */
  async refreshChat(q: Queryable, accountId: number, own: string, other: string): Promise<void> {
    await q.query(
      `UPDATE chats SET (last_message_id, last_date) = (
          SELECT id, date FROM messages
           WHERE account_id = $1 AND own_full_number = $2 AND other_full_number = $3 AND NOT deleted
           ORDER BY date DESC LIMIT 1)
        WHERE account_id = $1 AND own_full_number = $2 AND other_full_number = $3`,
      [accountId, own, other],
    );
  },

  async setStt(
    q: Queryable,
    accountId: number,
    smsId: string,
    s: { stt: string | null; sttStatus: number },
  ): Promise<void> {
    await q.query(`UPDATE messages SET stt = $3, stt_status = $4 WHERE account_id = $1 AND sms_id = $2`, [
      accountId,
      smsId,
      s.stt,
      s.sttStatus,
    ]);
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
  balance: number;
  /** Whether this own number already has a conversation with the destination. */
  known: boolean;
  /** The destination's rate (null when no row, not even '*', exists for the currency). */
  sms: number | null;
  mms: number | null;
}

export const sendFactsRepo = {
  async read(
    q: Queryable,
    p: { accountId: number; from: string; to: string; currency: string; country: string | null },
  ): Promise<SendFacts> {
    const [row] = await q.query<SendFacts>(
      `SELECT v.account_id AS "holderId", v.tel_code AS "telCode", v.country, v.toll_free AS "tollFree",
              v.toll_free_verified AS "tollFreeVerified",
              COALESCE((SELECT balance FROM accounts WHERE id = $1), 0) AS balance,
              EXISTS (SELECT 1 FROM chats c WHERE c.account_id = $1 AND c.own_full_number = $2 AND c.other_full_number = $3) AS known,
              r.sms, r.mms
         FROM (SELECT 1) AS one
         LEFT JOIN virtual_numbers v ON v.full_number = $2
         LEFT JOIN LATERAL (
           SELECT sms, mms FROM message_rates WHERE currency = $4 AND country IN ($5, '*') ORDER BY (country = '*') LIMIT 1
         ) r ON true`,
      [p.accountId, p.from, p.to, p.currency, p.country ?? '*'],
    );
    return row!;
  },
};
