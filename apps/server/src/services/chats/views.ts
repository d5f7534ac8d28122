import { constants, retmsg, type Lang, type ReceiveMessage } from '@numa/contract';
import type { MessageRow } from '../../repositories/messages';

export type { MessageRow };

/** The national part of a party number ('' tel code: the whole of it); the chat list does the same in SQL (repositories/messages.ts nationalSql). */
const nationalOf = (full: string, telCode: string) =>
  telCode && full.startsWith(telCode) ? full.slice(telCode.length) : full;

/**
 * The text a failed message shows: the retcode's words in the reader's language, nothing else. The
 * carrier's own reason (English, with numbers and codes) stays in the row's `retmsg` for operators;
 * users saw it raw in the alert ("unreachable destination 61400000000"), issue 13 §3.9.
 */
export function failureText(row: Pick<MessageRow, 'retcode'>, lang: Lang): string {
  return retmsg(row.retcode ?? 300036, lang);
}

/** A stored message as the socket's receiveMessage (spec 000 §7). */
export function toReceiveMessage(row: MessageRow, lang: Lang): ReceiveMessage {
  const own = {
    number: row.ownFullNumber,
    telCode: row.ownTelCode,
    phone: nationalOf(row.ownFullNumber, row.ownTelCode),
  };
  const other = {
    number: row.otherFullNumber,
    telCode: row.otherTelCode,
    phone: nationalOf(row.otherFullNumber, row.otherTelCode),
  };
  const [from, to] = row.direction === 'out' ? [own, other] : [other, own];
  return {
    fromNumber: from.number,
    toNumber: to.number,
    fromPhone: from.phone,
    toPhone: to.phone,
    fromTelCode: from.telCode,
    toTelCode: to.telCode,
    direction: row.direction,
    msgType: row.type,
    text: row.text,
    media: row.media,
    smsId: row.smsId,
    time: row.date,
    status: row.status,
    retmsg: row.status === constants.messageStatus.failed ? failureText(row, lang) : '',
    highlightTarget: row.highlightTarget,
    highlightText: row.highlightText,
    ...(row.status === constants.messageStatus.failed ? { retcode: row.retcode ?? 300036 } : {}),
    ...(row.direction === 'out' && row.deliveredAt !== null && row.status !== constants.messageStatus.failed
      ? { delivered: true as const }
      : {}),
  };
}
