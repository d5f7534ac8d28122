import { createHash } from 'node:crypto';
import { WebhookEventType } from '@numa/contract/developer';
import type { AccountEvent } from '../../realtime/hub';
import { statusName, toApiMessage } from '../chats/apiView';

/** An event as it goes out: its type, a key that is the same wherever and however often it is met, and its data. */
export interface OutgoingEvent {
  type: string;
  key: string;
  data: Record<string, unknown>;
}

/** The event types an endpoint asked for (its stored comma list). */
export const parseEvents = (s: string) =>
  s
    .split(',')
    .map((x) => WebhookEventType.safeParse(x))
    .flatMap((r) => (r.success ? [r.data] : []));

/** The Standard Webhooks id of an event: the same for every endpoint and every try. */
export const msgIdOf = (key: string) =>
  `msg_${createHash('sha256').update(key).digest('base64url').slice(0, 27)}`;

/** What the hub's events mean for webhooks. */
export function eventOf(ev: AccountEvent): { accountId: number; event: OutgoingEvent } | null {
  if (ev.kind === 'message') {
    const row = ev.row;
    if (row.direction === 'in')
      return {
        accountId: row.accountId,
        event: { type: 'message.received', key: `recv:${row.id}`, data: { message: toApiMessage(row) } },
      };
    const status = statusName(row);
    if (status === 'pending') return null;
    return {
      accountId: row.accountId,
      event: {
        type: 'message.status',
        key: `status:${row.id}:${status}`,
        data: { message: toApiMessage(row) },
      },
    };
  }
  if (ev.kind === 'codeSms') {
    const { app, number, sms } = ev.event;
    return {
      accountId: ev.accountId,
      event: {
        type: 'code.received',
        key: `code:${sms.smsId}`,
        data: {
          id: sms.smsId,
          app,
          number: `+${number}`,
          code: sms.code,
          text: sms.text,
          charge: sms.charge,
          receivedAt: new Date(sms.date).toISOString(),
        },
      },
    };
  }
  return {
    accountId: ev.accountId,
    event: {
      type: 'number.renewal_failed',
      key: `renewal:${ev.event.number}:${ev.event.reclaimOn}`,
      data: { number: `+${ev.event.number}`, reclaimOn: ev.event.reclaimOn },
    },
  };
}
