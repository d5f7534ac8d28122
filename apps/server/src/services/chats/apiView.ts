import { constants, fromMinor, retmsg } from '@numa/contract';
import type { ApiMessage } from '@numa/contract/apiV1';
import type { MessageRow } from '../../repositories/messages';

/** A party as /api/v1 shows it: E.164 with '+' for a number with a country code, else as it came (a short code, a sender id). */
export const e164 = (full: string, telCode: string) => (telCode ? `+${full}` : full);

/** The status /api/v1 and the webhooks name: pending, sent, delivered or failed. */
export function statusName(row: Pick<MessageRow, 'status' | 'deliveredAt' | 'direction'>) {
  if (row.status === constants.messageStatus.failed) return 'failed' as const;
  if (row.status === constants.messageStatus.pending) return 'pending' as const;
  return row.direction === 'out' && row.deliveredAt !== null ? ('delivered' as const) : ('sent' as const);
}

/** A stored message as /api/v1 and the webhooks show it (contract apiV1 `Message`). */
export function toApiMessage(row: MessageRow): ApiMessage {
  const own = e164(row.ownFullNumber, row.ownTelCode);
  const other = e164(row.otherFullNumber, row.otherTelCode);
  const failed = row.status === constants.messageStatus.failed;
  return {
    id: row.smsId,
    conversationId: `${row.ownFullNumber}-${row.otherFullNumber}`,
    direction: row.direction,
    type: row.type,
    from: row.direction === 'out' ? own : other,
    to: row.direction === 'out' ? other : own,
    text: row.text,
    media: row.media ? row.media.split(',').filter(Boolean) : [],
    status: statusName(row),
    error: failed ? { code: row.retcode ?? 300036, message: retmsg(row.retcode ?? 300036, 'en') } : null,
    segments: row.segments,
    charge: fromMinor(row.charge),
    createdAt: new Date(row.date).toISOString(),
    deliveredAt: row.deliveredAt !== null && !failed ? new Date(row.deliveredAt).toISOString() : null,
  };
}
