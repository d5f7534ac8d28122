/** An SMS handed to the carrier. Numbers are full numbers, digits only (country code first). */
export interface OutboundSms {
  /** Sender: one of our numbers, or null for system messages (codes) sent from the carrier's pool. */
  from: string | null;
  to: string;
  text: string;
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
   * Stable for every attempt of one message: a carrier that supports idempotent requests uses it, so a
   * resumed job after a crash does not send twice (the simulator derives its message id from it).
   */
  idempotencyKey: string;
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
