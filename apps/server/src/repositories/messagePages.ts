import type { Q } from '../db';
import { messagesRepo, type MessageRow } from './messages';

/** The columns of a MessageRow (repositories/messages.ts), on the alias `m`. */
const cols = [
  'm.id',
  'm.account_id as accountId',
  'm.own_full_number as ownFullNumber',
  'm.own_tel_code as ownTelCode',
  'm.other_full_number as otherFullNumber',
  'm.other_tel_code as otherTelCode',
  'm.direction',
  'm.type',
  'm.text',
  'm.media',
  'm.status',
  'm.retcode',
  'm.retmsg',
  'm.highlight_target as highlightTarget',
  'm.highlight_text as highlightText',
  'm.sms_id as smsId',
  'm.date',
  'm.charge',
  'm.segments',
  'm.carrier',
  'm.carrier_id as carrierId',
  'm.stt',
  'm.stt_status as sttStatus',
  'm.delivered_at as deliveredAt',
  'm.deleted',
] as const;

/**
 * Keyset pages of conversations and messages for /api/v1 (issue 21): newest first, continued from
 * the last item of the previous page, on the indexes the chat screen uses (chats_account_last,
 * messages_conversation).
 */
export const messagePagesRepo = {
  /** Conversations by their last message's date (then own, other number), before `after` when given. */
  async conversations(
    q: Q,
    accountId: number,
    after: { date: number; own: string; other: string } | null,
    limit: number,
  ): Promise<MessageRow[]> {
    let query = q
      .selectFrom('chats as c')
      .innerJoin('messages as m', 'm.id', 'c.last_message_id')
      .select(cols)
      .where('c.account_id', '=', accountId)
      .where('c.last_message_id', 'is not', null);
    if (after)
      query = query.where((eb) =>
        eb(
          eb.refTuple('c.last_date', 'c.own_full_number', 'c.other_full_number'),
          '<',
          eb.tuple(after.date, after.own, after.other),
        ),
      );
    return (await query
      .orderBy('c.last_date', 'desc')
      .orderBy('c.own_full_number', 'desc')
      .orderBy('c.other_full_number', 'desc')
      .limit(limit)
      .execute()) as MessageRow[];
  },

  /** A conversation's messages (not deleted), older than `before` (a date) when given. */
  async messages(
    q: Q,
    accountId: number,
    own: string,
    other: string,
    before: number | null,
    limit: number,
  ): Promise<MessageRow[]> {
    let query = q
      .selectFrom('messages as m')
      .select(cols)
      .where('m.account_id', '=', accountId)
      .where('m.own_full_number', '=', own)
      .where('m.other_full_number', '=', other)
      .where('m.deleted', '=', false);
    if (before !== null) query = query.where('m.date', '<', before);
    return (await query.orderBy('m.date', 'desc').limit(limit).execute()) as MessageRow[];
  },

  bySmsId: messagesRepo.bySmsId,
};
