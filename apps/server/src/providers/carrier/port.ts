/** An SMS handed to the carrier. Numbers are full numbers, digits only (country code first). */
export interface OutboundSms {
  /** Sender: one of our numbers, or null for system messages (codes) sent from the carrier's pool. */
  from: string | null;
  to: string;
  text: string;
  /**
   * The hand-over's request key when the text is retried by a job (codes.send): the same for every
   * try, as `OutboundMessage.idempotencyKey` (a lookup of it is `lookupMessage` with `media` empty).
   */
  idempotencyKey?: string;
}

/** A media file of ours attached to an outgoing MMS. */
export interface OutboundMedia {
  /** Media store id (`/media/<id>`). */
  id: string;
  mime: string;
}

/** A chat message from one of our numbers (SMS, or MMS when it has media). */
export interface OutboundMessage {
  from: string;
  to: string;
  text: string;
  media: OutboundMedia[];
  /**
   * The hand-over's request key, the same for every try of one message (`msg-<message id>`). A
   * carrier that keeps what a request carried answers a lookup by it (the simulator); Twilio keeps no
   * such key, so its lookup matches by sender, recipient, text and time instead.
   */
  idempotencyKey: string;
}

/**
 * A chat message whose earlier hand-over may have reached the carrier without our knowing (the
 * process died after the carrier's acceptance and before our record of it, or the call timed out):
 * what that hand-over carried, and since when the carrier could have it.
 */
export interface HandOverLookup extends OutboundMessage {
  /** The message's creation (our clock): no hand-over of it is older. */
  since: Date;
}

/** The carrier's own record of a chat message it accepted (an answer to a lookup). */
export interface CarrierRecord {
  /** The carrier's message id (what the hand-over answered, or would have). */
  id: string;
  /** When the carrier took it (its clock). */
  at: Date;
  /** Set when the carrier has already given up on it (undelivered, refused downstream). */
  failed?: { reason: string; errorCode?: string; retcode?: CarrierRetcode };
}

/** An incoming message's file: one already in our media store, or bytes fetched from the carrier. */
export type InboundMedia = { mediaId: string } | { bytes: Uint8Array; fileName?: string };

/** A message the carrier brings in for one of our numbers. */
export interface InboundMessage {
  /** The carrier's message id: repeated deliveries of one message are stored once. */
  carrierId: string;
  /** Full number, or a short code / sender id. */
  from: string;
  /** One of our numbers (full number). */
  to: string;
  text: string;
  media: InboundMedia[];
  /** Default: 'mms' with media, else 'sms'. */
  type?: 'sms' | 'mms' | 'verificationCode' | 'voicemail';
  /** A voicemail's transcript, and its speech-to-text status (constants.sttStatus). */
  stt?: string | undefined;
  sttStatus?: number;
}

/**
 * What a failed send means for the user, in our words: the retcodes a person can act on (invalid,
 * unroutable or opted-out recipient 300031, sender not allowed 300032, toll-free number not verified
 * 300030). Each adapter maps its carrier's own codes to these; anything else has none and shows as
 * "could not be sent" (300036) with the carrier's reason.
 */
export type CarrierRetcode = 300030 | 300031 | 300032;

/** A later status of a message the carrier accepted (delivery report). */
export interface StatusUpdate {
  carrierId: string;
  status: 'sent' | 'delivered' | 'failed';
  /** The carrier's own error code and text when it failed. */
  errorCode?: string;
  reason?: string;
  /** Our retcode for the failure, when the user can act on it. */
  retcode?: CarrierRetcode;
}

/**
 * Where the carrier hands what comes in: inbound messages and status updates. The chat service is
 * the sink; it answers whether the destination is one of our numbers.
 */
export interface CarrierSink {
  inbound(message: InboundMessage): Promise<{ delivered: boolean }>;
  status(update: StatusUpdate): Promise<void>;
}

/** An incoming call to one of our numbers, as it starts ringing. Numbers as the carrier gives them. */
export interface CallStart {
  /** The carrier's call id. */
  carrierId: string;
  from: string;
  to: string;
}

/**
 * What to do with an incoming call: ring the holder's own phone (full number), take a voicemail (the
 * greeting in `lang`), or refuse it (no holder, no switch on, or no money for a minute).
 */
export type CallAnswer =
  | { action: 'forward'; to: string; lang: 'en' | 'zh' }
  | { action: 'voicemail'; lang: 'en' | 'zh' }
  | { action: 'reject'; lang: 'en' | 'zh' };

/** An incoming call that ended. */
export interface CallEnd extends CallStart {
  /** How long it lasted once connected (a forwarded call: talking; a voicemail: the whole call). */
  seconds: number;
  /** Connected: the forwarded call was picked up, or the voicemail answered. */
  answered: boolean;
}

/** A voicemail recording the carrier made of a call. */
export interface VoicemailRecording extends CallStart {
  bytes: Uint8Array;
  fileName?: string;
}

/** Where the carrier hands incoming calls: the calls service. */
export interface CallSink {
  answer(call: CallStart): Promise<CallAnswer>;
  /** Records (and charges) a call once per carrier id. */
  ended(call: CallEnd): Promise<void>;
  /** Puts a voicemail in the holder's chat with its transcript, once per call. */
  voicemail(recording: VoicemailRecording): Promise<void>;
}

/**
 * The carrier: SMS/MMS out, and inbound messages and status updates in (through the sink). Errors of
 * a send are `CarrierError`s: `permanent` ones fail the message at once, others are retried.
 */
export interface CarrierPort {
  readonly name: string;
  /** System messages (sign-in and verification codes). */
  sendSms(message: OutboundSms): Promise<{ id: string }>;
  /** A chat message from one of our numbers; resolves once the carrier accepted it. */
  sendMessage(message: OutboundMessage): Promise<{ id: string }>;
  /**
   * Asked before a chat message is handed over again when an earlier try's outcome is unknown: the
   * carrier's records that may be that hand-over, oldest first. Empty means the carrier does not have
   * it (handing it over now sends it once). Throws (a transient `CarrierError`) when the carrier
   * cannot tell now: the message is then not sent until it can.
   */
  lookupMessage(message: HandOverLookup): Promise<CarrierRecord[]>;
  /** Connects the carrier's inbound side to the chat service. */
  attach(sink: CarrierSink): void;
  /** Connects the carrier's incoming calls to the calls service (carriers that take calls). */
  attachCalls?(sink: CallSink): void;
  close?(): Promise<void>;
}

export class CarrierError extends Error {
  constructor(
    message: string,
    /** The carrier's own code, when it gave one. */
    readonly carrierCode?: string,
    /** A permanent refusal (bad number, blocked): retrying cannot help. */
    readonly permanent = true,
    /** Our retcode for it, when the user can act on it (the adapter maps its carrier's codes). */
    readonly retcode?: CarrierRetcode,
  ) {
    super(message);
    this.name = 'CarrierError';
  }
}
