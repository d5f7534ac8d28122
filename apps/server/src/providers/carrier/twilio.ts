import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import {
  CarrierError,
  type CallAnswer,
  type CallSink,
  type CarrierPort,
  type CarrierRecord,
  type CarrierSink,
  type HandOverLookup,
  type InboundMedia,
  type OutboundMessage,
  type OutboundSms,
  type CarrierRetcode,
  type StatusUpdate,
} from './port';

/**
 * Twilio error codes that mean something the user can act on, as our retcodes. Anything else is
 * "the message could not be sent" with Twilio's reason.
 */
export const twilioRetcodes: Record<string, CarrierRetcode> = {
  '21211': 300031, // invalid 'To' number
  '21612': 300031, // cannot route to this number
  '21614': 300031, // not a mobile number
  '21610': 300031, // the recipient replied STOP
  '21606': 300032, // the 'From' number cannot send
  '21659': 300032, // the 'From' number is not ours at the carrier
  '30032': 300030, // toll-free number not verified
};

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** Public base URL of this server (webhooks and media links Twilio fetches), without a trailing slash. */
  webhookBaseUrl: string;
  /** https://api.twilio.com, or a local fake in tests. */
  apiBaseUrl: string;
  /** Sender of system messages (codes) that have no number of ours: a Messaging Service. */
  messagingServiceSid?: string | undefined;
  /** How long a media link handed to Twilio stays valid. */
  mediaLinkTtlMs?: number;
}

/** Paths of the webhooks (relative to the webhook base URL). */
export const twilioPaths = {
  inbound: '/carrier/twilio/inbound',
  status: '/carrier/twilio/status',
  media: '/carrier/media',
  /** An incoming call to one of our numbers (the number's VoiceUrl): answered with TwiML. */
  voice: '/carrier/twilio/voice',
  /** An incoming call's status callback (the number's StatusCallback): the call record. */
  callStatus: '/carrier/twilio/call-status',
  /** A voicemail recording is ready (the Record verb's recordingStatusCallback). */
  recording: '/carrier/twilio/recording',
} as const;

/** HTTP basic authorization with an account SID and auth token (every Twilio REST call). */
export const twilioBasicAuth = (accountSid: string, authToken: string) =>
  `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;

/**
 * Twilio's request signature (X-Twilio-Signature): HMAC-SHA1, keyed with the auth token, of the full
 * URL Twilio requested followed by every POST parameter's name and value, sorted by name; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const plus = (digits: string) => (digits.startsWith('+') ? digits : `+${digits}`);

/** Text for an XML attribute or element. */
const xml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** What callers hear, in the holder's language (Twilio's <Say> voices of those languages). */
export const twilioCallTexts = {
  en: { say: 'en-US', greeting: en.calls.voicemailGreeting },
  zh: { say: 'zh-CN', greeting: zh.calls.voicemailGreeting },
} as const;

/** The longest voicemail taken (seconds). */
export const voicemailMaxSeconds = 120;

/** The final states of a call in Twilio's status callback. */
const endedStates = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

interface TwilioError {
  code?: number;
  message?: string;
  status?: number;
}

/** A page of Twilio's Messages list (the fields the lookup reads). */
interface TwilioMessagePage {
  messages?: {
    sid?: string;
    from?: string;
    to?: string;
    body?: string | null;
    direction?: string;
    status?: string;
    error_code?: number | string | null;
    date_created?: string | null;
  }[];
  next_page_uri?: string | null;
}

/** Twilio's clock and ours may differ: the lookup's window opens this much before the message's creation. */
const lookupClockMarginMs = 5 * 60_000;
/** Messages per page of a lookup, and the most pages read (one conversation since the window opened). */
const lookupPageSize = 200;
const lookupMaxPages = 20;

/**
 * The Twilio adapter (CARRIER=twilio). Outbound: the Messages REST call (form-encoded, basic auth)
 * with a status callback. Inbound and status webhooks are checked with the X-Twilio-Signature before
 * anything is read from them; MMS media of incoming messages is fetched into our media store, and
 * ours is handed to Twilio as short-lived signed links.
 *
 * Twilio's Messages API takes no idempotency key on creation (I-Twilio-Idempotency-Token is a header
 * of the webhooks Twilio sends us, not one it honours on our requests). So a hand-over whose outcome
 * is unknown (our process died after Twilio's acceptance, or the call timed out) is looked up first
 * (`lookupMessage`): Twilio's message list for the sender and recipient, matched by direction, text
 * and creation time; it is sent again only when Twilio has none.
 */
export class TwilioCarrier implements CarrierPort {
  readonly name = 'twilio';
  private sink: CarrierSink | null = null;
  private readonly base: string;

  constructor(
    readonly config: TwilioConfig,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.base = config.webhookBaseUrl.replace(/\/+$/, '');
  }

  attach(sink: CarrierSink) {
    this.sink = sink;
  }

  private calls: CallSink | null = null;
  attachCalls(sink: CallSink) {
    this.calls = sink;
  }

  private callSink(params: Record<string, string>): CallSink {
    if (params.AccountSid !== this.config.accountSid)
      throw new CarrierError('webhook of another Twilio account');
    if (!this.calls) throw new Error('carrier is not attached to the calls service');
    return this.calls;
  }

  /** TwiML for one answer: `<Dial>` the holder's phone, `<Record>` a voicemail, or `<Reject>`. */
  twiml(a: CallAnswer, call: { from: string; to: string }): string {
    const head = '<?xml version="1.0" encoding="UTF-8"?><Response>';
    if (a.action === 'forward') {
      // the holder sees who calls; a caller without a usable number shows as our number
      const callerId = /^\+\d{6,15}$/.test(call.from) ? ` callerId="${xml(call.from)}"` : '';
      return `${head}<Dial answerOnBridge="true" timeout="25"${callerId}><Number>${xml(plus(a.to))}</Number></Dial></Response>`;
    }
    if (a.action === 'voicemail') {
      const t = twilioCallTexts[a.lang];
      const q = new URLSearchParams({ from: call.from, to: call.to });
      return (
        `${head}<Say language="${t.say}">${xml(t.greeting)}</Say>` +
        `<Record maxLength="${voicemailMaxSeconds}" playBeep="true" timeout="5"` +
        ` action="${xml(`${this.base}${twilioPaths.voice}?step=recorded`)}"` +
        ` recordingStatusCallback="${xml(`${this.base}${twilioPaths.recording}?${q}`)}"` +
        ` recordingStatusCallbackMethod="POST" recordingStatusCallbackEvent="completed"/></Response>`
      );
    }
    return `${head}<Reject reason="busy"/></Response>`;
  }

  /**
   * The voice webhook (already verified): how to answer an incoming call, as TwiML. After a
   * recording (`step=recorded`, the Record verb's action) the call hangs up.
   */
  async voice(params: Record<string, string>, query: Record<string, string>): Promise<string> {
    const sink = this.callSink(params);
    if (query.step === 'recorded')
      return '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';
    if (!params.CallSid || !params.From || !params.To) throw new CarrierError('incomplete voice webhook');
    const answer = await sink.answer({ carrierId: params.CallSid, from: params.From, to: params.To });
    this.log?.debug({ sid: params.CallSid, action: answer.action }, 'twilio call');
    return this.twiml(answer, { from: params.From, to: params.To });
  }

  /**
   * The call status callback (already verified): a call that ended becomes its call record. With
   * answerOnBridge a forwarded call is answered only when the holder picks up, so CallDuration is
   * the talk time and a call nobody picked up ends as no-answer or busy.
   */
  async callStatus(params: Record<string, string>): Promise<void> {
    const sink = this.callSink(params);
    if (!params.CallSid || !params.From || !params.To || !params.CallStatus)
      throw new CarrierError('incomplete call status webhook');
    if (!endedStates.has(params.CallStatus) || params.Direction?.startsWith('outbound')) return;
    const seconds = Math.max(0, Number(params.CallDuration) || 0);
    await sink.ended({
      carrierId: params.CallSid,
      from: params.From,
      to: params.To,
      seconds,
      answered: params.CallStatus === 'completed' && seconds > 0,
    });
  }

  /**
   * A voicemail recording is ready (already verified; the caller and our number ride in its signed
   * query): fetched from Twilio's API into the holder's chat.
   */
  async recording(params: Record<string, string>, query: Record<string, string>): Promise<void> {
    const sink = this.callSink(params);
    if (params.RecordingStatus && params.RecordingStatus !== 'completed') return;
    const url = params.RecordingUrl;
    if (!params.CallSid || !url || !query.from || !query.to)
      throw new CarrierError('incomplete recording webhook');
    // our credentials go only to Twilio's own API host
    if (!url.startsWith(`${this.apiBase}/`)) throw new CarrierError('recording outside the Twilio API');
    const res = await fetch(`${url}.wav`, {
      headers: { authorization: this.auth },
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok)
      throw new CarrierError(`recording of ${params.CallSid}: HTTP ${res.status}`, undefined, false);
    await sink.voicemail({
      carrierId: params.CallSid,
      from: query.from,
      to: query.to,
      bytes: new Uint8Array(await res.arrayBuffer()),
      fileName: `${params.RecordingSid ?? 'voicemail'}.wav`,
    });
  }

  private get apiBase() {
    return this.config.apiBaseUrl.replace(/\/+$/, '');
  }

  private get auth() {
    return twilioBasicAuth(this.config.accountSid, this.config.authToken);
  }

  /** A link Twilio may fetch one of our media files from, valid for a while. */
  mediaLink(id: string, now = Date.now()): string {
    const exp = Math.floor((now + (this.config.mediaLinkTtlMs ?? 24 * 3600_000)) / 1000);
    return `${this.base}${twilioPaths.media}/${id}?exp=${exp}&sig=${this.mediaSig(id, exp)}`;
  }

  private mediaSig(id: string, exp: number) {
    return createHmac('sha256', this.config.authToken).update(`media:${id}:${exp}`).digest('base64url');
  }

  verifyMediaLink(id: string, exp: string | undefined, sig: string | undefined, now = Date.now()): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
    if (Number(exp) * 1000 < now) return false;
    return safeEqual(sig, this.mediaSig(id, Number(exp)));
  }

  /** Whether a webhook request is Twilio's: the signature over `path` (with its query) and the form fields. */
  verifyWebhook(
    pathWithQuery: string,
    params: Record<string, string>,
    signature: string | undefined,
  ): boolean {
    if (!signature) return false;
    return safeEqual(
      signature,
      twilioSignature(this.config.authToken, `${this.base}${pathWithQuery}`, params),
    );
  }

  private async create(form: URLSearchParams): Promise<{ id: string }> {
    const url = `${this.apiBase}/2010-04-01/Accounts/${this.config.accountSid}/Messages.json`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: this.auth,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new CarrierError(`Twilio unreachable: ${(err as Error).message}`, undefined, false);
    }
    const body = (await res.json().catch(() => ({}))) as TwilioError & { sid?: string };
    if (res.ok && typeof body.sid === 'string') return { id: body.sid };
    const message = body.message ?? `Twilio answered HTTP ${res.status}`;
    const transient = res.status >= 500 || res.status === 429 || (res.ok && !body.sid);
    const code = body.code !== undefined ? String(body.code) : undefined;
    throw new CarrierError(message, code, !transient, code ? twilioRetcodes[code] : undefined);
  }

  /**
   * Twilio's messages that may be this hand-over: the Messages list filtered by From and To (one
   * conversation; no DateSent filter, since a message still queued has no date_sent yet), newest
   * first, page by page until a page holds only messages created before the window; kept are the
   * outbound API messages with the same text created since `since` (less a clock margin). Twilio's
   * own failure states come back as `failed` with the error code mapped as for a refusal.
   */
  async lookupMessage(m: HandOverLookup): Promise<CarrierRecord[]> {
    const from = plus(m.from);
    const to = plus(m.to);
    const since = m.since.getTime() - lookupClockMarginMs;
    const found: CarrierRecord[] = [];
    let next: string | null =
      `/2010-04-01/Accounts/${this.config.accountSid}/Messages.json?` +
      new URLSearchParams({ From: from, To: to, PageSize: String(lookupPageSize) }).toString();
    for (let page = 0; next; page++) {
      if (page === lookupMaxPages)
        throw new CarrierError(
          `Twilio lookup of ${m.idempotencyKey}: more than ${lookupMaxPages} pages in the window`,
          undefined,
          false,
        );
      const body: TwilioMessagePage = await this.getJson<TwilioMessagePage>(next);
      if (!Array.isArray(body.messages))
        throw new CarrierError('Twilio message list without messages', undefined, false);
      let inWindow = false;
      for (const x of body.messages) {
        const at = Date.parse(x.date_created ?? '');
        if (!Number.isFinite(at) || at < since) continue;
        inWindow = true;
        if (x.direction !== 'outbound-api' || x.from !== from || x.to !== to) continue;
        if ((x.body ?? '') !== m.text || typeof x.sid !== 'string') continue;
        const failed = x.status === 'failed' || x.status === 'undelivered' || x.status === 'canceled';
        const code = x.error_code != null ? String(x.error_code) : undefined;
        found.push({
          id: x.sid,
          at: new Date(at),
          ...(failed
            ? {
                failed: {
                  reason: `Twilio: ${x.status}${code ? ` (error ${code})` : ''}`,
                  ...(code ? { errorCode: code } : {}),
                  ...(code && twilioRetcodes[code] ? { retcode: twilioRetcodes[code] } : {}),
                },
              }
            : {}),
        });
      }
      // newest first: a page with nothing in the window means the rest is older still
      next = inWindow && body.next_page_uri ? body.next_page_uri : null;
      // a path of the API (our credentials go nowhere else)
      if (next && !next.startsWith('/2010-04-01/'))
        throw new CarrierError(`Twilio next page outside the API: ${next}`, undefined, false);
    }
    return found.sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  /** A GET of Twilio's REST API (a path with its query); anything but a JSON 200 is a transient CarrierError. */
  private async getJson<T>(pathWithQuery: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.apiBase}${pathWithQuery}`, {
        headers: { authorization: this.auth, accept: 'application/json' },
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new CarrierError(`Twilio unreachable: ${(err as Error).message}`, undefined, false);
    }
    const body = (await res.json().catch(() => null)) as (T & TwilioError) | null;
    if (res.ok && body) return body;
    throw new CarrierError(
      body?.message ?? `Twilio answered HTTP ${res.status}`,
      body?.code !== undefined ? String(body.code) : undefined,
      false,
    );
  }

  async sendSms(message: OutboundSms) {
    const form = new URLSearchParams({ To: plus(message.to), Body: message.text });
    if (message.from) form.set('From', plus(message.from));
    else if (this.config.messagingServiceSid)
      form.set('MessagingServiceSid', this.config.messagingServiceSid);
    else throw new CarrierError('no sender for system messages: set TWILIO_MESSAGING_SERVICE_SID');
    return this.create(form);
  }

  async sendMessage(message: OutboundMessage) {
    const form = new URLSearchParams({ To: plus(message.to), From: plus(message.from) });
    if (message.text) form.set('Body', message.text);
    for (const m of message.media) form.append('MediaUrl', this.mediaLink(m.id));
    form.set('StatusCallback', `${this.base}${twilioPaths.status}`);
    return this.create(form);
  }

  /** An incoming-message webhook (already verified): fetches its media and hands it to the chat service. */
  async inbound(params: Record<string, string>): Promise<{ delivered: boolean }> {
    if (params.AccountSid !== this.config.accountSid)
      throw new CarrierError('webhook of another Twilio account');
    const sid = params.MessageSid ?? params.SmsSid;
    if (!sid || !params.From || !params.To) throw new CarrierError('incomplete inbound webhook');
    const count = Math.min(Number(params.NumMedia ?? 0) || 0, 10);
    const media: InboundMedia[] = [];
    for (let i = 0; i < count; i++) {
      const url = params[`MediaUrl${i}`];
      // our credentials go only to Twilio's own API host (media URLs live under it)
      if (!url || !url.startsWith(`${this.apiBase}/`)) {
        this.log?.warn({ sid, url }, 'inbound media outside the Twilio API skipped');
        continue;
      }
      const res = await fetch(url, {
        headers: { authorization: this.auth },
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new CarrierError(`media ${i} of ${sid}: HTTP ${res.status}`, undefined, false);
      media.push({ bytes: new Uint8Array(await res.arrayBuffer()) });
    }
    if (!this.sink) throw new Error('carrier is not attached to the chat service');
    return this.sink.inbound({
      carrierId: sid,
      from: params.From,
      to: params.To,
      text: params.Body ?? '',
      media,
    });
  }

  /** A status-callback webhook (already verified). */
  async status(params: Record<string, string>): Promise<void> {
    if (params.AccountSid !== this.config.accountSid)
      throw new CarrierError('webhook of another Twilio account');
    const sid = params.MessageSid ?? params.SmsSid;
    const status = params.MessageStatus ?? params.SmsStatus;
    if (!sid || !status) throw new CarrierError('incomplete status webhook');
    let update: StatusUpdate | null = null;
    if (status === 'failed' || status === 'undelivered') {
      update = {
        carrierId: sid,
        status: 'failed',
        ...(params.ErrorCode ? { errorCode: params.ErrorCode } : {}),
        ...(params.ErrorCode && twilioRetcodes[params.ErrorCode]
          ? { retcode: twilioRetcodes[params.ErrorCode] }
          : {}),
        reason: `Twilio: ${status}${params.ErrorCode ? ` (error ${params.ErrorCode})` : ''}`,
      };
    } else if (status === 'sent' || status === 'delivered') {
      update = { carrierId: sid, status };
    }
    if (!update) return;
    if (!this.sink) throw new Error('carrier is not attached to the chat service');
    this.log?.debug({ sid, status }, 'twilio status');
    await this.sink.status(update);
  }
}
