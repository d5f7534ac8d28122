import type { FastifyBaseLogger } from 'fastify';
import {
  CodeSupplyError,
  type Acquired,
  type CodeSupplyPort,
  type QuotedFee,
  type SupplyErrorKind,
} from './port';
import { maxSupplierPrice, type PriceRates } from './price';

/**
 * SMS-Activate's service codes for our app ids (its public list; 5sim's and other suppliers'
 * compatible endpoints take the same codes). CODE_SUPPLIER_SERVICES overrides or adds entries.
 */
export const defaultServiceCodes: Record<string, string> = {
  whatsapp: 'wa',
  telegram: 'tg',
  google: 'go',
  wechat: 'wb',
  facebook: 'fb',
  instagram: 'ig',
  tiktok: 'lf',
  openai: 'dr',
  twitter: 'tw',
  microsoft: 'mm',
  apple: 'wx',
  amazon: 'am',
  paypal: 'ts',
  discord: 'ds',
  signal: 'bw',
  snapchat: 'fu',
  linkedin: 'tn',
  uber: 'ub',
  tinder: 'oi',
  line: 'me',
  viber: 'vi',
  kakaotalk: 'kt',
  steam: 'mt',
  netflix: 'nf',
  yahoo: 'mb',
  ebay: 'dh',
  alibaba: 'ab',
  other: 'ot',
};

/** SMS-Activate's country ids for our countries (ISO alpha-2). CODE_SUPPLIER_COUNTRIES overrides or adds. */
export const defaultCountryIds: Record<string, string> = { US: '187', GB: '16', CA: '36', AU: '175' };

export interface SmsActivateOptions {
  /** The handler_api.php address, e.g. https://api.sms-activate.org/stubs/handler_api.php. */
  url: string;
  apiKey: string;
  /** How often a live activation is asked for its SMS (ms). */
  pollEveryMs: number;
  services?: Record<string, string>;
  countries?: Record<string, string>;
  /** Supplier currency per unit of the user's fee, by fee currency: maxPrice = fee × rate. */
  priceRates?: PriceRates;
  /** One call's time limit (ms). */
  timeoutMs?: number;
  /** The name locks and pool rows of this supplier carry (default `smsactivate`). */
  name?: string;
}

/** What a documented answer means for us, and what the operator should do about it. */
interface Meaning {
  kind: SupplyErrorKind;
  says: string;
  action?: string;
}

/**
 * Every documented error answer of handler_api.php (SMS-Activate's API page, its PHP and Python
 * implementations), whatever the action and the HTTP status it comes with. Answers particular to one
 * action (STATUS_*, ACCESS_*, NO_ACTIVATION, EARLY_CANCEL_DENIED) are read by that action.
 */
export const smsActivateErrors: Record<string, Meaning> = {
  NO_NUMBERS: { kind: 'no_numbers', says: 'no free numbers for this service and country now' },
  OUT_OF_STOCK: { kind: 'no_numbers', says: 'out of numbers for this country' },
  WRONG_MAX_PRICE: {
    kind: 'price',
    says: 'no number at or below the maximum price sent (the answer gives the lowest price)',
    action:
      'raise CODE_SUPPLIER_PRICE_RATES or the code fee (`codes fee`) if this app and country should be sold',
  },
  NO_BALANCE: {
    kind: 'refused',
    says: 'the SMS-Activate account has no money left',
    action: 'top up the SMS-Activate account',
  },
  NO_BALANCE_FORWARD: {
    kind: 'refused',
    says: 'not enough money on the account to buy call forwarding',
    action:
      'top up the SMS-Activate account, or switch call forwarding off in its profile (Numa never asks for forwarding)',
  },
  BAD_KEY: {
    kind: 'refused',
    says: 'the API key is wrong',
    action: 'set CODE_SUPPLIER_API_KEY to the key shown in the SMS-Activate profile',
  },
  NO_KEY: { kind: 'refused', says: 'no API key was sent', action: 'set CODE_SUPPLIER_API_KEY' },
  BANNED: {
    kind: 'refused',
    says: 'the account is blocked until the time in the answer',
    action: 'wait for the block to end, or ask SMS-Activate support why',
  },
  CHANNELS_LIMIT: {
    kind: 'refused',
    says: 'the account is blocked: too many activations at once (channels limit)',
    action: 'finish or cancel open activations, or ask SMS-Activate to raise the limit',
  },
  ACCOUNT_INACTIVE: {
    kind: 'refused',
    says: 'the account is not active',
    action: 'activate the SMS-Activate account',
  },
  ORDER_ALREADY_EXISTS: {
    kind: 'refused',
    says: 'an order with the same order id exists',
    action: 'Numa sends no order id: check that no other program uses this API key',
  },
  WRONG_SERVICE: {
    kind: 'config',
    says: 'SMS-Activate does not know the service code sent',
    action: "fix the app's service code in CODE_SUPPLIER_SERVICES (app=code)",
  },
  BAD_SERVICE: {
    kind: 'config',
    says: 'the service name sent is wrong',
    action: "fix the app's service code in CODE_SUPPLIER_SERVICES (app=code)",
  },
  WRONG_COUNTRY: {
    kind: 'config',
    says: 'SMS-Activate does not know the country id sent',
    action: "fix the country's id in CODE_SUPPLIER_COUNTRIES (ISO=id)",
  },
  BAD_COUNTRY: {
    kind: 'config',
    says: 'the country id sent is wrong',
    action: "fix the country's id in CODE_SUPPLIER_COUNTRIES (ISO=id)",
  },
  WRONG_EXCEPTION_PHONE: {
    kind: 'config',
    says: 'the exclusion prefixes are wrong (the profile setting applies when none are sent)',
    action: 'correct or clear the number-prefix exclusions in the SMS-Activate profile',
  },
  BAD_ACTION: {
    kind: 'config',
    says: 'the supplier does not know this action',
    action: 'check CODE_SUPPLIER_URL points at an SMS-Activate-compatible handler_api.php',
  },
  BAD_STATUS: {
    kind: 'config',
    says: 'the activation status sent is not one the supplier takes now',
    action: 'look at the activation in the SMS-Activate dashboard; report it if it repeats',
  },
  WRONG_ADDITIONAL_SERVICE: { kind: 'config', says: 'wrong additional service (forwarding only)' },
  WRONG_SECURITY: { kind: 'config', says: 'the activation id cannot take this request' },
  NOT_AVAILABLE: { kind: 'not_offered', says: 'not available for the country chosen' },
  NO_YULA_MAIL: { kind: 'not_offered', says: 'this service is sold to verified wholesale customers only' },
  ERROR_SQL: { kind: 'unavailable', says: "the supplier's database failed" },
  SERVER_ERROR: { kind: 'unavailable', says: "the supplier's server failed" },
};

/** An answer read whatever its form: plain text (`KEYWORD:detail`), JSON success, or a JSON error. */
interface Reply {
  status: number;
  text: string;
  /** The answer's leading word (`ACCESS_NUMBER`, `NO_BALANCE`, a JSON error's title). */
  word: string;
  json?: Record<string, unknown>;
}

/** Answers that mean the activation no longer exists at the supplier. */
const gone = new Set(['NO_ACTIVATION', 'WRONG_ACTIVATION_ID', 'INVALID_ACTIVATION_ID', 'STATUS_CANCEL']);
/** How long SMS-Activate refuses to cancel a fresh activation (EARLY_CANCEL_DENIED). */
export const earlyCancelMs = 2 * 60_000;

/** BANNED:'2026-01-02 03:04:05' (the supplier's clock, Moscow time) as epoch ms, when readable. */
function bannedUntil(text: string): number | undefined {
  const m = /(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2})[-:](\d{2})[-:](\d{2})/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, se] = m.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h! - 3, mi!, se!);
}

/**
 * A code-number supplier speaking the SMS-Activate protocol (`handler_api.php?api_key=…&action=…`).
 * Every answer is read whatever the HTTP status it comes with (`402 NO_BALANCE`, `401 BAD_KEY`, a
 * JSON `{"title": "WRONG_MAX_PRICE", …}`), as text or JSON, and mapped through `smsActivateErrors`:
 * only the temporary ones are temporary. An activation is one number for one app: getNumberV2 buys
 * it (with `maxPrice` from the user's fee, and its JSON answer says what it cost), getStatusV2 tells
 * what arrived (code and whole text in one answer), setStatus 3 asks for another SMS, 6 ends it as
 * used and 8 cancels it (the supplier refunds an activation that got no code). A server of the same
 * protocol without the V2 actions (BAD_ACTION) is spoken to with getNumber, getStatus and getFullSms.
 */
export class SmsActivateSupply implements CodeSupplyPort {
  readonly name: string;
  readonly handsOutNumbers = true;
  readonly pollEveryMs: number;
  private readonly services: Record<string, string>;
  private readonly countries: Record<string, string>;
  /** The server answered BAD_ACTION to a V2 action: speak V1 to it from then on. */
  private v1 = false;

  constructor(
    private readonly opts: SmsActivateOptions,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.name = opts.name ?? 'smsactivate';
    this.pollEveryMs = opts.pollEveryMs;
    this.services = { ...defaultServiceCodes, ...opts.services };
    this.countries = { ...defaultCountryIds, ...opts.countries };
  }

  /** One call, its answer read as text or JSON whatever its HTTP status. Only network failures throw here. */
  private async call(action: string, params: Record<string, string>): Promise<Reply> {
    const url = new URL(this.opts.url);
    url.searchParams.set('api_key', this.opts.apiKey);
    url.searchParams.set('action', action);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000) });
      text = (await res.text()).trim();
    } catch (err) {
      throw new CodeSupplyError('unavailable', `${action}: ${(err as Error).message}`, undefined, {
        reason: 'NETWORK',
      });
    }
    let json: Record<string, unknown> | undefined;
    let word = text.split(':')[0]!.trim();
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      const err =
        (typeof json?.title === 'string' && json.title) ||
        (json?.status === 'error' && typeof json.message === 'string' && json.message) ||
        (typeof json?.error === 'string' && json.error) ||
        '';
      word = err ? err.split(':')[0]!.trim() : '';
      if (err && json) json = undefined; // an error, not an answer
      if (err) text = err + (text.length > err.length ? ` ${text.slice(0, 200)}` : '');
    }
    return { status: res.status, text, word, ...(json ? { json } : {}) };
  }

  /** An answer the action did not expect: the documented meaning, else by HTTP status. */
  private fail(action: string, r: Reply): CodeSupplyError {
    const m = smsActivateErrors[r.word];
    const answer = r.text.slice(0, 200);
    if (m)
      return new CodeSupplyError(m.kind, `${action}: ${r.word}: ${m.says}`, answer, {
        reason: r.word,
        ...(m.action ? { action: m.action } : {}),
        ...(r.word === 'BANNED' ? { pauseUntil: bannedUntil(r.text) } : {}),
      });
    if (r.status >= 500 || r.status === 429 || r.status === 408)
      return new CodeSupplyError('unavailable', `${action}: HTTP ${r.status}`, answer, {
        reason: `HTTP_${r.status}`,
      });
    if (r.status >= 400)
      return new CodeSupplyError('refused', `${action}: HTTP ${r.status} ${answer.slice(0, 80)}`, answer, {
        reason: `HTTP_${r.status}`,
        action: 'look at the answer: the supplier refused the call',
      });
    return new CodeSupplyError('unavailable', `${action}: unexpected answer ${answer.slice(0, 80)}`, answer, {
      reason: 'UNEXPECTED',
    });
  }

  private codes(app: string, country: string) {
    const service = this.services[app];
    const countryId = this.countries[country];
    if (!service || !countryId)
      throw new CodeSupplyError('not_offered', `no supplier code for ${app} in ${country}`, undefined, {
        reason: 'NOT_MAPPED',
      });
    return { service, countryId };
  }

  /** The most we may pay: the user's fee at our price rates (null: no fee given). */
  private maxPrice(fee: QuotedFee | undefined): string | null {
    if (!fee) return null;
    const max = maxSupplierPrice(fee, this.opts.priceRates ?? {});
    if (max === null)
      throw new CodeSupplyError('config', `no price rate for fees in ${fee.currency}`, undefined, {
        reason: 'NO_PRICE_RATE',
        action: `set CODE_SUPPLIER_PRICE_RATES (${fee.currency}=<SMS-Activate price per 1 ${fee.currency} of fee>)`,
      });
    return max;
  }

  async acquire(p: { app: string; country: string; fee?: QuotedFee }): Promise<Acquired> {
    const { service, countryId } = this.codes(p.app, p.country);
    const maxPrice = this.maxPrice(p.fee);
    const params = { service, country: countryId, ...(maxPrice !== null ? { maxPrice } : {}) };
    const limit = maxPrice !== null ? { maxPrice } : {};
    if (!this.v1) {
      const r = await this.call('getNumberV2', params);
      const j = r.json;
      if (j && j.activationId !== undefined && j.phoneNumber !== undefined) {
        const phone = String(j.phoneNumber).replace(/\D/g, '');
        if (!/^\d{5,16}$/.test(phone)) throw this.fail('getNumberV2', { ...r, word: 'UNEXPECTED' });
        const cost = Number(j.activationCost);
        return {
          ref: String(j.activationId),
          phone,
          ...(Number.isFinite(cost) ? { cost } : {}),
          ...limit,
        };
      }
      if (r.word !== 'BAD_ACTION') throw this.fail('getNumberV2', r);
      this.log?.info({ supplier: this.name }, 'the supplier has no getNumberV2: speaking V1');
      this.v1 = true;
    }
    const r = await this.call('getNumber', params);
    const m = /^ACCESS_NUMBER:([^:]+):\+?(\d{5,16})$/.exec(r.text);
    if (m) return { ref: m[1]!, phone: m[2]!, ...limit };
    throw this.fail('getNumber', r);
  }

  async locked(p: { previousRef?: string | null }) {
    // a number handed out before: ask its activation for another SMS
    if (!p.previousRef)
      throw new CodeSupplyError('not_offered', 'a supplier number needs its activation', undefined, {
        reason: 'NO_ACTIVATION',
      });
    const r = await this.call('setStatus', { id: p.previousRef, status: '3' });
    if (r.word === 'ACCESS_RETRY_GET') return { ref: p.previousRef, send: null };
    if (gone.has(r.word) || r.word === 'BAD_STATUS')
      throw new CodeSupplyError('no_numbers', `setStatus 3: ${r.word}: the activation has ended`, r.text, {
        reason: r.word,
      });
    throw this.fail('setStatus', r);
  }

  async poll(ref: string) {
    if (!this.v1) {
      const r = await this.call('getStatusV2', { id: ref });
      if (r.word !== 'BAD_ACTION') return this.status('getStatusV2', ref, r);
      this.v1 = true;
    }
    return this.status('getStatus', ref, await this.call('getStatus', { id: ref }));
  }

  /** A getStatus / getStatusV2 answer. */
  private async status(action: string, ref: string, r: Reply) {
    const sms = r.json?.sms as { code?: unknown; text?: unknown } | null | undefined;
    if (r.json) {
      const code = sms && typeof sms.code === 'string' ? sms.code.trim() : '';
      if (!code) return { status: 'wait' as const };
      const text = typeof sms?.text === 'string' && sms.text.trim() ? sms.text.trim() : code;
      return this.received(ref, code, text);
    }
    const w = r.word;
    if (w === 'STATUS_WAIT_CODE' || w === 'STATUS_WAIT_RESEND' || w === 'STATUS_WAIT_RETRY')
      return { status: 'wait' as const };
    if (w === 'ACCESS_CANCEL' || gone.has(w)) return { status: 'cancelled' as const };
    const m = /^STATUS_OK:(.*)$/s.exec(r.text);
    if (!m) throw this.fail(action, r);
    const code = m[1]!.trim();
    // the whole SMS when the supplier keeps it (getFullSms); otherwise the code is all we know
    let full = code;
    try {
      const answer = await this.call('getFullSms', { id: ref });
      if (answer.text.startsWith('FULL_SMS:')) full = answer.text.slice('FULL_SMS:'.length).trim() || code;
    } catch (err) {
      this.log?.debug({ err, ref }, 'getFullSms failed; the code stands for the text');
    }
    return this.received(ref, code, full);
  }

  private async received(ref: string, code: string, text: string) {
    // the activation waits for another SMS while the lock lives (a second code, a resend)
    await this.call('setStatus', { id: ref, status: '3' }).catch(() => {});
    return { status: 'code' as const, code, text };
  }

  async prices(p: { app: string; country: string }) {
    const { service, countryId } = this.codes(p.app, p.country);
    const r = await this.call('getPrices', { service, country: countryId });
    if (!r.json) throw this.fail('getPrices', r);
    const entry = (r.json as Record<string, Record<string, { cost?: unknown; count?: unknown }>>)[
      countryId
    ]?.[service];
    if (!entry) return null;
    const cost = Number(entry.cost);
    const count = Number(entry.count);
    if (!Number.isFinite(cost) || !Number.isFinite(count))
      throw new CodeSupplyError('unavailable', 'getPrices: cost or count missing', r.text, {
        reason: 'UNEXPECTED',
      });
    return { cost, count };
  }

  /**
   * The lock ended: 6 (used) when a code came, 8 (cancel; the supplier refunds us) otherwise.
   * EARLY_CANCEL_DENIED (its first two minutes): ask again after them.
   */
  async finished(p: { ref: string | null; outcome: 'done' | 'cancel' | 'ban' }) {
    if (!p.ref) return;
    const status = p.outcome === 'done' ? '6' : '8';
    const r = await this.call('setStatus', { id: p.ref, status });
    if (r.word === 'ACCESS_ACTIVATION' || r.word === 'ACCESS_CANCEL' || r.word === 'ACCESS_READY') return;
    if (gone.has(r.word)) return; // ended at the supplier already
    if (r.word === 'EARLY_CANCEL_DENIED') return { retryAfterMs: earlyCancelMs };
    throw this.fail(`setStatus ${status}`, r);
  }
}
