import { z } from 'zod';
import { BrandId, Direction, EpochMs, FullNumber, LanguageCode, Money } from './common';
import { constants } from './constants';
import { sessionCodes } from './retcodes';
import { MediaList, MessageStatus, MessageType, PartyNumber, SmsId } from './api/chats';
import { SmsItem } from './api/codes';
import { ScheduledMessage } from './api/scheduled';

/*
 * The real-time channel (spec 000 §7): socket.io at path /webchat, token in the handshake query,
 * websocket then polling. The client sends `sendMessage` (text, or the binary MMS form); the server
 * answers every send with a `receiveMessage` carrying the same smsId and the final status (0 sent or
 * 2 failed with retcode and retmsg), and pushes incoming messages the same way. Every socket of an
 * account gets its messages, so a send from one tab shows in the others.
 */

/** The socket.io path. */
export const socketPath = '/webchat';

/** Event names. `kicked` is ours: the server ends the socket's session (then disconnects it). */
export const socketEvents = {
  sendMessage: 'sendMessage',
  receiveMessage: 'receiveMessage',
  kicked: 'kicked',
  balance: 'balance',
  codeSms: 'codeSms',
  renewalFailed: 'renewalFailed',
  scheduled: 'scheduled',
} as const;

/**
 * `balance` is ours (issue 10): after every committed balance change (a top-up, a message charge, a
 * number's rent, a code fee, an operator's adjustment), every socket of the account gets its new
 * balance, so every open tab shows it at once without polling.
 */
export const BalanceEvent = z.object({ balance: Money });
export type BalanceEvent = z.infer<typeof BalanceEvent>;

/**
 * The handshake query: the session token (spec: "a token query"), and optionally the language for
 * retmsg texts. Not strict: socket.io adds its own keys (EIO, transport).
 */
export const SocketQuery = z.object({
  token: z.string().min(1).max(512),
  languagecode: LanguageCode.optional(),
});
export type SocketQuery = z.infer<typeof SocketQuery>;

/**
 * `connect_error` data when the handshake is refused (spec: "error (with code)"): a session retcode
 * (100012 invalid or missing token, 100013 expired, 100014 elsewhere, 100008 suspended, 200018
 * deleted) and its text. Decided (issue 9): a handshake query that is malformed otherwise (a
 * `languagecode` other than en / zh_cn) is 100001, in the Accept-Language language; a page origin
 * that is not one of the brand's is 100003; a token that just flooded is 100015.
 */
export const SocketErrorData = z.object({ retcode: z.number().int(), retmsg: z.string() });
export type SocketErrorData = z.infer<typeof SocketErrorData>;

/** A text message sent (spec 000 §7). `toNumber` has at least 5 digits (spec 000 §5). */
export const SendMessage = z.strictObject({
  fromNumber: FullNumber,
  toNumber: FullNumber,
  text: z.string().trim().min(1).max(constants.smsTextMax),
  msgType: z.literal('sms'),
  smsId: SmsId,
  platform: BrandId,
  languagecode: LanguageCode,
});
export type SendMessage = z.infer<typeof SendMessage>;

/** Bytes of an MMS file: a Uint8Array (a Node Buffer is one) or an ArrayBuffer. */
export const FileBytes = z
  .custom<Uint8Array | ArrayBuffer>(
    (v) => v instanceof Uint8Array || v instanceof ArrayBuffer,
    'Expected binary file data',
  )
  .refine((v) => v.byteLength > 0, 'The file is empty')
  .refine(
    (v) => v.byteLength <= constants.mmsMaxBytes,
    `The file is larger than ${constants.mmsMaxBytes} bytes`,
  );

export const MmsMimeType = z.enum(constants.mmsMimeTypes);

/** An MMS sent (spec 000 §7: the binary form, fileBuffer / fileType / fileName in place of text). */
export const SendMms = z.strictObject({
  fromNumber: FullNumber,
  toNumber: FullNumber,
  fileBuffer: FileBytes,
  fileType: MmsMimeType,
  fileName: z.string().trim().min(1).max(255),
  msgType: z.literal('mms'),
  smsId: SmsId,
  platform: BrandId,
  languagecode: LanguageCode,
  text: z.string().max(constants.smsTextMax).optional(),
});
export type SendMms = z.infer<typeof SendMms>;

/** What `sendMessage` carries: a text or an MMS. */
export const SendPayload = z.discriminatedUnion('msgType', [SendMessage, SendMms]);
export type SendPayload = z.infer<typeof SendPayload>;

/**
 * A message pushed to the client (spec 000 §7), incoming (direction 'in') or the confirmation of a
 * send (direction 'out', same smsId). `fromNumber`/`toNumber` are full numbers (or a sender id for
 * inbound-only senders); `fromPhone`/`toPhone` the national parts; `time` the message date (the
 * client replaces its pending date with it). `retcode` (ours) is set with a failed status so the
 * client can act: 300030 toll-free prompt, 100010 captcha, 400001 no credit, 100012–100014 log out.
 */
export const ReceiveMessage = z.object({
  fromNumber: PartyNumber,
  toNumber: PartyNumber,
  fromPhone: z.string(),
  toPhone: z.string(),
  fromTelCode: z.string(),
  toTelCode: z.string(),
  direction: Direction,
  msgType: MessageType,
  text: z.string(),
  media: MediaList,
  smsId: SmsId,
  time: EpochMs,
  status: MessageStatus,
  retmsg: z.string(),
  highlightTarget: z.string(),
  highlightText: z.string(),
  retcode: z.number().int().optional(),
  /** Ours (issue 21): the outgoing message was delivered (pushed again when the carrier reports it). */
  delivered: z.literal(true).optional(),
});
export type ReceiveMessage = z.infer<typeof ReceiveMessage>;

const kickCodes = Object.keys(sessionCodes).map(Number) as (keyof typeof sessionCodes)[];

/** The session of this socket ended (signed in elsewhere, revoked, expired, suspended, deleted). */
export const Kicked = z.object({ retcode: z.literal(kickCodes), retmsg: z.string() });
export type Kicked = z.infer<typeof Kicked>;

/**
 * A code SMS arrived on a number the account locked (ours, issue 12): pushed at once so the code
 * shows before the next poll of getVerificationCodeSmsList, which returns the same item.
 */
export const CodeSmsEvent = z.object({ app: z.string(), number: FullNumber, sms: SmsItem });
export type CodeSmsEvent = z.infer<typeof CodeSmsEvent>;

/**
 * A number's rent could not be paid on its date (ours, issue 11): the grace period started, and the
 * number is reclaimed on `reclaimOn` (ISO date) unless the balance pays the rent before. Every socket
 * of the account gets it (an e-mail says the same).
 */
export const RenewalFailedEvent = z.object({
  number: FullNumber,
  reclaimOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type RenewalFailedEvent = z.infer<typeof RenewalFailedEvent>;

/**
 * A scheduled message changed (ours, issue 22 §2): scheduled, edited, cancelled, sending, sent or
 * failed. Every socket of the account gets it, so each open tab updates the conversation's list.
 */
export const ScheduledEvent = z.object({ scheduled: ScheduledMessage });
export type ScheduledEvent = z.infer<typeof ScheduledEvent>;

/** socket.io typings: `io<ServerToClientEvents, ClientToServerEvents>()`. */
export interface ClientToServerEvents {
  sendMessage: (payload: z.input<typeof SendPayload>) => void;
  /** issue 23: what the visible page shows (push.ts ViewingEvent) */
  viewing: (event: { chat: string | null }) => void;
}
export interface ServerToClientEvents {
  receiveMessage: (message: ReceiveMessage) => void;
  kicked: (kick: Kicked) => void;
  balance: (event: BalanceEvent) => void;
  codeSms: (event: CodeSmsEvent) => void;
  renewalFailed: (event: RenewalFailedEvent) => void;
  scheduled: (event: ScheduledEvent) => void;
}
