import type { FastifyBaseLogger } from 'fastify';
import { CodeSupplyError, type CodeSupplyPort } from './port';

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
  /** One call's time limit (ms). */
  timeoutMs?: number;
}

/** Answers that mean the operator must act (the key, the account, the balance at the supplier). */
const refusals = ['BAD_KEY', 'NO_BALANCE', 'BANNED', 'ACCOUNT_INACTIVE', 'BAD_ACTION', 'NO_KEY'];

/**
 * A code-number supplier speaking the SMS-Activate protocol (`handler_api.php?api_key=…&action=…`,
 * plain-text answers such as `ACCESS_NUMBER:<id>:<number>`, `STATUS_OK:<code>`, `NO_NUMBERS`, and
 * JSON for getPrices). An activation is one number for one app: getNumber hands it out, getStatus
 * (and getFullSms for the whole text) tells what arrived, setStatus 3 asks for another SMS, 6 ends
 * it as used and 8 cancels it (the supplier refunds an activation that got no code).
 */
export class SmsActivateSupply implements CodeSupplyPort {
  readonly name = 'smsactivate';
  readonly handsOutNumbers = true;
  readonly pollEveryMs: number;
  private readonly services: Record<string, string>;
  private readonly countries: Record<string, string>;

  constructor(
    private readonly opts: SmsActivateOptions,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.pollEveryMs = opts.pollEveryMs;
    this.services = { ...defaultServiceCodes, ...opts.services };
    this.countries = { ...defaultCountryIds, ...opts.countries };
  }

  /** One call: the answer's text (trimmed). Network failures and non-2xx answers are `unavailable`. */
  private async call(action: string, params: Record<string, string>): Promise<string> {
    const url = new URL(this.opts.url);
    url.searchParams.set('api_key', this.opts.apiKey);
    url.searchParams.set('action', action);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000) });
    } catch (err) {
      throw new CodeSupplyError('unavailable', `${action}: ${(err as Error).message}`);
    }
    const text = (await res.text()).trim();
    if (!res.ok)
      throw new CodeSupplyError('unavailable', `${action}: HTTP ${res.status}`, text.slice(0, 200));
    const word = text.split(':')[0]!;
    if (refusals.includes(word)) throw new CodeSupplyError('refused', `${action}: ${text}`, text);
    if (word === 'ERROR_SQL') throw new CodeSupplyError('unavailable', `${action}: ${text}`, text);
    return text;
  }

  private codes(app: string, country: string) {
    const service = this.services[app];
    const countryId = this.countries[country];
    if (!service || !countryId)
      throw new CodeSupplyError('not_offered', `no supplier code for ${app} in ${country}`);
    return { service, countryId };
  }

  async acquire(p: { app: string; country: string }) {
    const { service, countryId } = this.codes(p.app, p.country);
    const text = await this.call('getNumber', { service, country: countryId });
    const m = /^ACCESS_NUMBER:([^:]+):\+?(\d{5,16})$/.exec(text);
    if (m) return { ref: m[1]!, phone: m[2]! };
    if (text === 'NO_NUMBERS' || text.startsWith('WRONG_MAX_PRICE'))
      throw new CodeSupplyError('no_numbers', `getNumber: ${text}`, text);
    if (text === 'BAD_SERVICE' || text === 'BAD_COUNTRY')
      throw new CodeSupplyError('not_offered', `getNumber: ${text}`, text);
    throw new CodeSupplyError('unavailable', `getNumber: unexpected answer ${text.slice(0, 80)}`, text);
  }

  async locked(p: { previousRef?: string | null }) {
    // a number handed out before: ask its activation for another SMS
    if (!p.previousRef) throw new CodeSupplyError('not_offered', 'a supplier number needs its activation');
    const text = await this.call('setStatus', { id: p.previousRef, status: '3' });
    if (text !== 'ACCESS_RETRY_GET') throw new CodeSupplyError('no_numbers', `setStatus 3: ${text}`, text);
    return { ref: p.previousRef, send: null };
  }

  async poll(ref: string) {
    const text = await this.call('getStatus', { id: ref });
    if (text === 'STATUS_WAIT_CODE' || text === 'STATUS_WAIT_RESEND' || text.startsWith('STATUS_WAIT_RETRY'))
      return { status: 'wait' as const };
    if (text === 'STATUS_CANCEL' || text === 'NO_ACTIVATION' || text === 'WRONG_ACTIVATION_ID')
      return { status: 'cancelled' as const };
    const m = /^STATUS_OK:(.*)$/s.exec(text);
    if (!m)
      throw new CodeSupplyError('unavailable', `getStatus: unexpected answer ${text.slice(0, 80)}`, text);
    const code = m[1]!.trim();
    // the whole SMS when the supplier keeps it (getFullSms); otherwise the code is all we know
    let full = code;
    try {
      const answer = await this.call('getFullSms', { id: ref });
      if (answer.startsWith('FULL_SMS:')) full = answer.slice('FULL_SMS:'.length).trim() || code;
    } catch (err) {
      this.log?.debug({ err, ref }, 'getFullSms failed; the code stands for the text');
    }
    // the activation waits for another SMS while the lock lives (a second code, a resend)
    await this.call('setStatus', { id: ref, status: '3' }).catch(() => {});
    return { status: 'code' as const, code, text: full };
  }

  async prices(p: { app: string; country: string }) {
    const { service, countryId } = this.codes(p.app, p.country);
    const text = await this.call('getPrices', { service, country: countryId });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CodeSupplyError('unavailable', `getPrices: not JSON: ${text.slice(0, 80)}`, text);
    }
    const entry = (json as Record<string, Record<string, { cost?: unknown; count?: unknown }>>)?.[
      countryId
    ]?.[service];
    if (!entry) return null;
    const cost = Number(entry.cost);
    const count = Number(entry.count);
    if (!Number.isFinite(cost) || !Number.isFinite(count))
      throw new CodeSupplyError('unavailable', 'getPrices: cost or count missing', text);
    return { cost, count };
  }

  async finished(p: { ref: string | null; outcome: 'done' | 'cancel' }) {
    if (!p.ref) return;
    const status = p.outcome === 'done' ? '6' : '8';
    try {
      const text = await this.call('setStatus', { id: p.ref, status });
      if (text !== 'ACCESS_ACTIVATION' && text !== 'ACCESS_CANCEL')
        // e.g. EARLY_CANCEL_DENIED: the supplier ends the activation itself when its time is up
        this.log?.warn({ ref: p.ref, answer: text }, 'the code supplier kept an activation open');
    } catch (err) {
      this.log?.warn({ err, ref: p.ref }, 'telling the code supplier an activation ended failed');
    }
  }
}
