import { z } from 'zod';
import { EpochMs, FullNumber } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/*
 * Scheduled messages (issue 22 §2): an SMS written now and sent by the server at a chosen time,
 * charged when it goes (never when it is scheduled). Decided (docs/decisions.md "Scheduled
 * messages"): SMS only, 1–`constants.scheduled.textMax` characters, at least
 * `constants.scheduled.minLeadMs` and at most `constants.scheduled.maxAheadDays` days ahead, at most
 * `constants.scheduled.maxWaiting` waiting per account (400000 with the reason). Edited or
 * cancelled while waiting (or, once failed, edited back to waiting or cancelled to remove it);
 * once it is sending the answer is 400000 ("already sent").
 */

/** waiting → sending → sent | failed; waiting (or failed) → cancelled. */
export const ScheduledStatus = z.enum(['waiting', 'sending', 'sent', 'failed', 'cancelled']);
export type ScheduledStatus = z.infer<typeof ScheduledStatus>;

const ScheduledId = z.string().regex(/^\d{1,18}$/, 'Invalid scheduled message id');

/** One scheduled message, as the conversation shows it. */
export const ScheduledMessage = z.object({
  id: ScheduledId,
  fromNumber: FullNumber,
  toNumber: FullNumber,
  text: z.string(),
  /** When it goes (epoch ms). */
  sendAt: EpochMs,
  status: ScheduledStatus,
  /** Grows with every edit; an edit names the version it changes (a stale one is 400000). */
  version: z.number().int().positive(),
  /** Why it failed (400001: the balance was too short when it was due), with its text. */
  retcode: z.number().int().optional(),
  retmsg: z.string(),
  /** The message it became (smsId `sch-<id>`), once sent. */
  smsId: z.string().optional(),
});
export type ScheduledMessage = z.infer<typeof ScheduledMessage>;

const Text = z.string().trim().min(1, 'Text is required').max(constants.scheduled.textMax, 'Text too long');

/** Schedules an SMS from an own number. */
export const scheduleMessage = defineEndpoint({
  name: 'scheduleMessage',
  method: 'POST',
  path: '/web/scheduleMessage',
  access: 'session',
  summary: 'Schedule an SMS to be sent at a time (charged when it is sent).',
  input: z.strictObject({
    fromNumber: FullNumber,
    toNumber: FullNumber,
    text: Text,
    sendAt: EpochMs,
  }),
  output: z.object({ scheduled: ScheduledMessage }),
});

/** A conversation's scheduled messages still to go, or failed (by time). */
export const getScheduledMessages = defineEndpoint({
  name: 'getScheduledMessages',
  method: 'GET',
  path: '/web/getScheduledMessages',
  access: 'session',
  summary: "A conversation's scheduled messages (waiting, sending or failed), by time.",
  input: z.strictObject({ fromNumber: FullNumber, toNumber: FullNumber }),
  output: z.object({ scheduled: z.array(ScheduledMessage) }),
});

/** Changes a waiting (or failed) one's text and time; `version` is the one the user saw. */
export const editScheduledMessage = defineEndpoint({
  name: 'editScheduledMessage',
  method: 'POST',
  path: '/web/editScheduledMessage',
  access: 'session',
  summary: "Change a scheduled message's text and time while it waits.",
  input: z.strictObject({
    id: ScheduledId,
    version: z.number().int().positive(),
    text: Text,
    sendAt: EpochMs,
  }),
  output: z.object({ scheduled: ScheduledMessage }),
});

/** Cancels a waiting (or removes a failed) one; too late once it is sending (400000). */
export const cancelScheduledMessage = defineEndpoint({
  name: 'cancelScheduledMessage',
  method: 'POST',
  path: '/web/cancelScheduledMessage',
  access: 'session',
  summary: 'Cancel a scheduled message that has not gone yet.',
  input: z.strictObject({ id: ScheduledId }),
  output: z.object({ scheduled: ScheduledMessage }),
});
