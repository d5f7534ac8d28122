import { brands, constants, fromMinor, mulMinor, negMinor, zeroMinor, type CallRecord } from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { brandLang } from '../lib/brand';
import { monthRange } from '../lib/dates';
import { idemKey } from '../lib/idem';
import { jsonObject } from '../lib/jsonText';
import type { CallAnswer, CallSink, InboundMessage, VoicemailRecording } from '../providers/carrier/port';
import { SttFailedError, SttUnavailableError, type SttPort } from '../providers/stt/port';
import { accountsRepo } from '../repositories/accounts';
import { callsRepo, type CallRow } from '../repositories/calls';
import { ledger } from '../repositories/ledger';
import { numbersRepo } from '../repositories/numbers';
import type { Pricing } from './pricing';

/** An incoming call as a carrier reports it when it ends (the simulator's `POST /dev/inbound-call`). */
export interface InboundCall {
  carrierId: string;
  from: string;
  to: string;
  /** how long the caller stayed (talking when forwarded, speaking when recorded) */
  seconds: number;
  /** the forwarded call was picked up */
  answered: boolean;
  /** what the caller says into the voicemail (the simulated recording carries it) */
  message?: string | undefined;
  /**
   * The simulated carrier's recording comes with the report (default); a real carrier's recording
   * arrives on its own (`voicemail`).
   */
  simulatedRecording?: boolean;
}

const notAllowed = () =>
  new ApiError(100003, null, undefined, {
    en: en.numbers.callSettingNotAllowed,
    zh: zh.numbers.callSettingNotAllowed,
  });

/**
 * The simulated carrier's voicemail recording: a WAV (8 kHz, 8-bit mono) of a soft tone, at most 10 s,
 * with what the caller said in its LIST/INFO `ICMT` chunk (the speech-to-text simulator reads it).
 */
export function simulatedRecording(seconds: number, words = ''): Buffer {
  const rate = 8000;
  const n = rate * Math.max(1, Math.min(seconds, 10));
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0);
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(1, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate, 16);
  fmt.writeUInt16LE(1, 20);
  fmt.writeUInt16LE(8, 22);
  const text = Buffer.from(`${words}\0`, 'utf8');
  const pad = text.length % 2;
  const list = Buffer.alloc(20 + text.length + pad);
  list.write('LIST', 0);
  list.writeUInt32LE(12 + text.length + pad, 4);
  list.write('INFO', 8);
  list.write('ICMT', 12);
  list.writeUInt32LE(text.length, 16);
  text.copy(list, 20);
  const data = Buffer.alloc(8 + n);
  data.write('data', 0);
  data.writeUInt32LE(n, 4);
  for (let i = 0; i < n; i++) data[8 + i] = 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / rate));
  const head = Buffer.alloc(12);
  head.write('RIFF', 0);
  head.writeUInt32LE(4 + fmt.length + list.length + data.length, 4);
  head.write('WAVE', 8);
  return Buffer.concat([head, fmt, list, data]);
}

/**
 * Calls to the platform's numbers (issue 11 part 5): the forwarding / voicemail switches (mutually
 * exclusive, only where a plan allows them), each call recorded and charged at the number's
 * receive-call rate per started minute (bill type 4, same transaction), a voicemail delivered to the
 * chat as a `voicemail` message with its recording; and the call history.
 */
export function createCallService(d: {
  db: Database;
  pricing: Pricing;
  clock: Clock;
  /** Speech-to-text: a voicemail arrives in the chat with its transcript. */
  stt: SttPort;
  /** Stores an inbound message (the chats area's sink). */
  deliver: (m: InboundMessage) => Promise<{ delivered: boolean }>;
}) {
  const { db, pricing, clock } = d;

  /** The holder of a number, its switches, its account and the receive rate of a minute. */
  async function facts(toNumber: string) {
    const to = toNumber.replace(/\D/g, '');
    const holder = await numbersRepo.byFullNumber(db.q, to);
    if (!holder) return null;
    const [settings, account] = await Promise.all([
      numbersRepo.callSettings(db.q, holder.accountId),
      accountsRepo.byId(db.q, holder.accountId),
    ]);
    const type: 'forward' | 'voicemail' | 'voice' =
      settings.forwardStatus === 1 && account?.phone
        ? 'forward'
        : settings.voicemailStatus === 1
          ? 'voicemail'
          : 'voice';
    const rate =
      (await pricing.receivePerMinute(brands[account!.brand].id, holder.country, holder.tollFree)) ??
      zeroMinor;
    const lang = brandLang(account!.brand);
    return { to, holder, account: account!, type, rate, lang };
  }

  /**
   * A voicemail into the holder's chat, once per call: the recording in the media store and its
   * transcript from the speech-to-text port (kept on the message; a failure leaves it to the user's
   * own request, which says why).
   */
  async function voicemail(v: VoicemailRecording): Promise<void> {
    let stt: string | null = null;
    let sttStatus: number = constants.sttStatus.none;
    try {
      stt = await d.stt.transcribe({ bytes: v.bytes, mime: 'audio/wav', language: 'auto' });
      sttStatus = constants.sttStatus.done;
    } catch (err) {
      if (err instanceof SttFailedError) sttStatus = constants.sttStatus.failed;
      else if (!(err instanceof SttUnavailableError)) throw err;
    }
    await d.deliver({
      carrierId: `vm-${v.carrierId}`,
      from: v.from.replace(/\D/g, ''),
      to: v.to.replace(/\D/g, ''),
      text: '',
      media: [{ bytes: v.bytes, fileName: v.fileName ?? 'voicemail.wav' }],
      type: 'voicemail',
      stt: stt ?? undefined,
      sttStatus,
    });
  }

  const toRecord = (r: CallRow): CallRecord => ({
    _id: String(r.id),
    direction: r.direction,
    toNumber: r.toNumber,
    fromNumber: r.fromNumber,
    destNum: r.toNumber,
    srcNum: r.fromNumber,
    duration: r.duration,
    billingDuration: r.billingDuration,
    line: Object.entries(constants.tariffIds).find(([, id]) => id === r.tariffId)?.[0] ?? '',
    tariffId: r.tariffId,
    charge: fromMinor(r.charge),
    date: r.createdAt.getTime(),
    type: r.type as CallRecord['type'],
  });

  async function set(accountId: number, which: 'forward' | 'voicemail', on: 0 | 1) {
    const [rights, account, current] = await Promise.all([
      callsRepo.rights(db.q, accountId),
      accountsRepo.byId(db.q, accountId),
      numbersRepo.callSettings(db.q, accountId),
    ]);
    const allowed = which === 'forward' ? rights.forward && !!account?.phone : rights.voicemail;
    if (on && !allowed) throw notAllowed();
    const next =
      which === 'forward'
        ? { forward: on, voicemail: on ? 0 : current.voicemailStatus }
        : { voicemail: on, forward: on ? 0 : current.forwardStatus };
    await callsRepo.setSettings(db.q, accountId, next);
    return { forwardStatus: next.forward, voicemailStatus: next.voicemail };
  }

  return {
    setForward: (accountId: number, on: 0 | 1) => set(accountId, 'forward', on),
    setVoicemail: (accountId: number, on: 0 | 1) => set(accountId, 'voicemail', on),
    rights: (accountId: number) => callsRepo.rights(db.q, accountId),

    /**
     * Records an incoming call once per carrier id: forwarded (charged when answered), recorded as a
     * voicemail (charged, and delivered to the chat), or missed (no switch on: free). A balance too
     * short for the minutes leaves the call unconnected (recorded, free). Null: nobody holds `to`.
     */
    async inbound(c: InboundCall): Promise<CallRecord | null> {
      const f = await facts(c.to);
      if (!f) return null;
      const { to, holder, type, rate } = f;
      const from = c.from.replace(/\D/g, '');
      const connected = type === 'voicemail' || (type === 'forward' && c.answered);
      const seconds = connected ? Math.max(0, Math.round(c.seconds)) : 0;
      const minutes = Math.ceil(seconds / 60);
      const charge = mulMinor(rate, minutes);
      const record = (
        tx: Parameters<Parameters<Database['tx']>[0]>[0],
        paid: boolean,
        ledgerId: number | null,
      ) =>
        callsRepo.insert(tx, {
          accountId: holder.accountId,
          direction: 'in',
          fromNumber: from,
          toNumber: to,
          duration: paid ? seconds : 0,
          billingDuration: paid ? minutes * 60 : 0,
          tariffId: holder.tollFree ? constants.tariffIds.tollFreeLine : constants.tariffIds.commonLine,
          type,
          charge: paid ? negMinor(charge) : zeroMinor,
          ledgerId,
          carrierId: c.carrierId,
          createdAt: new Date(clock.now()),
        });
      let row: CallRow | null;
      let paid = true;
      try {
        row = await db.tx(async (tx) => {
          let ledgerId: number | null = null;
          if (charge > 0) {
            const r = await ledger.apply(tx, {
              accountId: holder.accountId,
              type: constants.billTypes.call,
              charge: negMinor(charge),
              options: { direction: 'in', from, to, type, duration: seconds },
              idempotencyKey: idemKey('call', holder.accountId, c.carrierId),
            });
            if (!r.applied) return null;
            ledgerId = r.row.id;
          }
          return record(tx, true, ledgerId);
        });
      } catch (err) {
        if (!(err instanceof ApiError) || err.retcode !== 400001) throw err;
        paid = false;
        row = await db.tx((tx) => record(tx, false, null));
      }
      if (row && paid && type === 'voicemail' && c.simulatedRecording !== false) {
        await voicemail({
          carrierId: c.carrierId,
          from,
          to,
          bytes: simulatedRecording(seconds, c.message ?? ''),
        });
      }
      return row ? toRecord(row) : null;
    },

    /**
     * How to answer a call as it rings: forward to the holder's phone, take a voicemail, or refuse
     * (nobody holds the number, no switch is on, or the balance cannot pay one minute).
     */
    async answer(c: { from: string; to: string }): Promise<CallAnswer> {
      const f = await facts(c.to);
      if (!f) return { action: 'reject', lang: 'en' };
      if (f.type === 'voice' || f.account.balance < f.rate) return { action: 'reject', lang: f.lang };
      if (f.type === 'forward')
        return { action: 'forward', to: `${f.account.telCode ?? ''}${f.account.phone!}`, lang: f.lang };
      return { action: 'voicemail', lang: f.lang };
    },

    voicemail,

    /** getCallList: a page of a UTC month's calls (JSON text built by the database, `callsRepo.page`). */
    async page(accountId: number, p: { date: string; pageNo: number; pageSize: number }) {
      const { from, to } = monthRange(p.date);
      const { total, list } = await callsRepo.page(db.q, {
        accountId,
        from,
        to,
        limit: p.pageSize,
        offset: (p.pageNo - 1) * p.pageSize,
      });
      return jsonObject<{ totalRows: number; callList: CallRecord[] }>({
        totalRows: String(total),
        callList: list,
      });
    },
  };
}

export type CallService = ReturnType<typeof createCallService>;

/** The calls service as the carrier's call sink (a real carrier's calls and recordings). */
export const callSink = (calls: CallService): CallSink => ({
  answer: (c) => calls.answer(c),
  ended: async (c) => {
    await calls.inbound({ ...c, simulatedRecording: false });
  },
  voicemail: (v) => calls.voicemail(v),
});
