import type { FastifyBaseLogger } from 'fastify';
import {
  CodeSupplyError,
  type Acquired,
  type CodeSupplyPort,
  type QuotedFee,
  type SupplyErrorKind,
} from './port';
import { maxSupplierPrice, type PriceRates } from './price';

/** 5sim's product names for our app ids where they differ from ours (the rest are the same word). */
export const defaultFiveSimProducts: Record<string, string> = {
  kakaotalk: 'kakaotalk',
  twitter: 'twitter',
  other: 'other',
};

/** 5sim's country names for our countries (ISO alpha-2). FIVESIM_COUNTRIES overrides or adds. */
export const defaultFiveSimCountries: Record<string, string> = {
  US: 'usa',
  GB: 'england',
  CA: 'canada',
  AU: 'australia',
};

export interface FiveSimOptions {
  /** The API's base, https://5sim.net/v1. */
  url: string;
  /** The API key (a JWT) from the 5sim profile, sent as a bearer token. */
  token: string;
  pollEveryMs: number;
  products?: Record<string, string>;
  countries?: Record<string, string>;
  /** `any` (the default: the cheapest; maxPrice works with it only) or one operator's name. */
  operator?: string;
  /** Supplier currency per unit of the user's fee, by fee currency: maxPrice = fee × rate. */
  priceRates?: PriceRates;
  timeoutMs?: number;
}

interface Meaning {
  kind: SupplyErrorKind;
  says: string;
  action?: string;
}

/** 5sim's documented error answers (plain text, usually with HTTP 400), for every call. */
export const fiveSimErrors: Record<string, Meaning> = {
  'no free phones': { kind: 'no_numbers', says: 'no free numbers for this product and country now' },
  'not enough product qty': { kind: 'no_numbers', says: 'not enough numbers of this product left' },
  'not enough user balance': {
    kind: 'refused',
    says: 'the 5sim account has no money left',
    action: 'top up the 5sim account',
  },
  'not enough rating': {
    kind: 'refused',
    says: "the 5sim account's rating is too low to buy",
    action: 'see the rating in the 5sim profile (cancelled and banned orders lower it)',
  },
  'no product': {
    kind: 'config',
    says: '5sim does not know the product sent',
    action: "fix the app's product name in FIVESIM_PRODUCTS (app=product)",
  },
  'bad country': {
    kind: 'config',
    says: '5sim does not know the country sent',
    action: "fix the country's name in FIVESIM_COUNTRIES (ISO=name)",
  },
  'bad operator': {
    kind: 'config',
    says: '5sim does not know the operator sent',
    action: 'fix FIVESIM_OPERATOR (any, or an operator 5sim lists for the country)',
  },
  'select country': { kind: 'config', says: 'no country was sent', action: 'fix FIVESIM_COUNTRIES' },
  'select operator': { kind: 'config', says: 'no operator was sent', action: 'fix FIVESIM_OPERATOR' },
  'server offline': { kind: 'unavailable', says: "5sim's server for this number is offline" },
  'order has sms': { kind: 'config', says: 'the order got an SMS: it can be finished, not cancelled' },
};

/** Answers that mean the order no longer exists or can no longer change. */
const orderGone = new Set(['order not found', 'order expired', 'order no sms', 'hosting order']);

interface Order {
  id: number;
  phone: string;
  operator?: string;
  product?: string;
  price?: number;
  status: string;
  expires?: string;
  sms?: { created_at?: string; date?: string; sender?: string; text?: string; code?: string }[] | null;
  country?: string;
}

/**
 * The second code-number supplier: 5sim's REST API (`https://5sim.net/v1`, a bearer token, JSON).
 * Buy (`/user/buy/activation/{country}/{operator}/{product}?maxPrice=…`), check
 * (`/user/check/{id}`: status PENDING → RECEIVED with its `sms`, or CANCELED / TIMEOUT / BANNED /
 * FINISHED), finish, cancel and ban (`/user/{finish|cancel|ban}/{id}`), prices
 * (`/guest/prices?country=…&product=…`). Its errors are plain text (`no free phones`, `not enough
 * user balance`, `no product` …) read whatever the HTTP status; a 401 is a bad token.
 */
export class FiveSimSupply implements CodeSupplyPort {
  readonly name = '5sim';
  readonly handsOutNumbers = true;
  readonly pollEveryMs: number;
  private readonly products: Record<string, string>;
  private readonly countries: Record<string, string>;

  constructor(
    private readonly opts: FiveSimOptions,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.pollEveryMs = opts.pollEveryMs;
    this.products = { ...defaultFiveSimProducts, ...opts.products };
    this.countries = { ...defaultFiveSimCountries, ...opts.countries };
  }

  /** One GET: the JSON answer, or a `CodeSupplyError` for every other answer. */
  private async get<T>(path: string, query: Record<string, string> = {}, auth = true): Promise<T> {
    const url = new URL(this.opts.url.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        headers: {
          Accept: 'application/json',
          ...(auth ? { Authorization: `Bearer ${this.opts.token}` } : {}),
        },
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      text = (await res.text()).trim();
    } catch (err) {
      throw new CodeSupplyError('unavailable', `${path}: ${(err as Error).message}`, undefined, {
        reason: 'NETWORK',
      });
    }
    if (res.ok && (text.startsWith('{') || text.startsWith('['))) {
      try {
        return JSON.parse(text) as T;
      } catch {
        // not JSON after all: read as an error below
      }
    }
    throw this.fail(path, res.status, text);
  }

  private fail(path: string, status: number, text: string): CodeSupplyError {
    const word = text.toLowerCase();
    const m = fiveSimErrors[word];
    const answer = text.slice(0, 200);
    const op = path.split('/').slice(0, 3).join('/');
    if (m)
      return new CodeSupplyError(m.kind, `${op}: ${word}: ${m.says}`, answer, {
        reason: word,
        ...(m.action ? { action: m.action } : {}),
      });
    if (orderGone.has(word))
      return new CodeSupplyError('not_offered', `${op}: ${word}`, answer, { reason: word });
    if (status === 401 || status === 403)
      return new CodeSupplyError('refused', `${op}: HTTP ${status}: the token is refused`, answer, {
        reason: `HTTP_${status}`,
        action: 'set FIVESIM_API_KEY to the API key shown in the 5sim profile (it expires: renew it there)',
      });
    if (status >= 500 || status === 429 || status === 408)
      return new CodeSupplyError('unavailable', `${op}: HTTP ${status}`, answer, {
        reason: `HTTP_${status}`,
      });
    if (status >= 400)
      return new CodeSupplyError('refused', `${op}: HTTP ${status} ${answer.slice(0, 80)}`, answer, {
        reason: `HTTP_${status}`,
        action: 'look at the answer: 5sim refused the call',
      });
    return new CodeSupplyError('unavailable', `${op}: unexpected answer ${answer.slice(0, 80)}`, answer, {
      reason: 'UNEXPECTED',
    });
  }

  private codes(app: string, country: string) {
    const product = this.products[app] ?? (/^[a-z0-9]+$/.test(app) ? app : undefined);
    const name = this.countries[country];
    if (!product || !name)
      throw new CodeSupplyError('not_offered', `no 5sim name for ${app} in ${country}`, undefined, {
        reason: 'NOT_MAPPED',
      });
    return { product, country: name };
  }

  async acquire(p: { app: string; country: string; fee?: QuotedFee }): Promise<Acquired> {
    const { product, country } = this.codes(p.app, p.country);
    const operator = this.opts.operator ?? 'any';
    let maxPrice: string | null = null;
    if (p.fee) {
      maxPrice = maxSupplierPrice(p.fee, this.opts.priceRates ?? {});
      if (maxPrice === null)
        throw new CodeSupplyError('config', `no price rate for fees in ${p.fee.currency}`, undefined, {
          reason: 'NO_PRICE_RATE',
          action: `set FIVESIM_PRICE_RATES (${p.fee.currency}=<5sim price per 1 ${p.fee.currency} of fee>)`,
        });
    }
    const order = await this.get<Order>(
      `/user/buy/activation/${encodeURIComponent(country)}/${encodeURIComponent(operator)}/${encodeURIComponent(product)}`,
      maxPrice !== null ? { maxPrice } : {},
    );
    const phone = String(order.phone ?? '').replace(/\D/g, '');
    if (!order.id || !/^\d{5,16}$/.test(phone))
      throw new CodeSupplyError(
        'unavailable',
        'buy: an order without an id or number',
        JSON.stringify(order).slice(0, 200),
        {
          reason: 'UNEXPECTED',
        },
      );
    return {
      ref: String(order.id),
      phone,
      ...(typeof order.price === 'number' ? { cost: order.price } : {}),
      ...(maxPrice !== null ? { maxPrice } : {}),
    };
  }

  /** A number bought before: its order still lives (5sim keeps listening until it expires), or it is over. */
  async locked(p: { previousRef?: string | null }) {
    if (!p.previousRef)
      throw new CodeSupplyError('not_offered', 'a supplier number needs its order', undefined, {
        reason: 'NO_ORDER',
      });
    const order = await this.get<Order>(`/user/check/${encodeURIComponent(p.previousRef)}`).catch(
      (err: unknown) => {
        if (err instanceof CodeSupplyError && err.kind === 'not_offered') return null;
        throw err;
      },
    );
    if (!order || (order.status !== 'PENDING' && order.status !== 'RECEIVED'))
      throw new CodeSupplyError(
        'no_numbers',
        `check: the order has ended (${order?.status ?? 'gone'})`,
        undefined,
        {
          reason: order?.status ?? 'order not found',
        },
      );
    return { ref: p.previousRef, send: null };
  }

  async poll(ref: string) {
    let order: Order;
    try {
      order = await this.get<Order>(`/user/check/${encodeURIComponent(ref)}`);
    } catch (err) {
      if (err instanceof CodeSupplyError && err.kind === 'not_offered')
        return { status: 'cancelled' as const };
      throw err;
    }
    const sms = (order.sms ?? []).filter((s) => s.code || s.text);
    const last = sms[sms.length - 1];
    if (last) {
      const code = (last.code ?? '').trim() || (last.text ?? '').trim();
      return { status: 'code' as const, code, text: (last.text ?? '').trim() || code };
    }
    if (order.status === 'PENDING' || order.status === 'RECEIVED') return { status: 'wait' as const };
    return { status: 'cancelled' as const }; // CANCELED, TIMEOUT, BANNED, FINISHED without an SMS
  }

  async prices(p: { app: string; country: string }) {
    const { product, country } = this.codes(p.app, p.country);
    const json = await this.get<
      Record<string, Record<string, Record<string, { cost?: number; count?: number }>>>
    >('/guest/prices', { country, product }, false);
    const operators = json?.[country]?.[product];
    if (!operators) return null;
    const offers = Object.entries(operators).filter(
      ([op]) => (this.opts.operator ?? 'any') === 'any' || op === this.opts.operator,
    );
    const stocked = offers
      .map(([, o]) => o)
      .filter((o) => Number(o.count) > 0 && Number.isFinite(Number(o.cost)));
    if (!stocked.length)
      return offers.length ? { cost: Math.min(...offers.map(([, o]) => Number(o.cost))), count: 0 } : null;
    return {
      cost: Math.min(...stocked.map((o) => Number(o.cost))),
      count: stocked.reduce((n, o) => n + Number(o.count), 0),
    };
  }

  /**
   * The lock ended: finish (a code came), ban (given back for another number: the app refused it,
   * 5sim refunds it), cancel (none came: refunded). An order that got an SMS cannot be cancelled:
   * it is finished instead.
   */
  async finished(p: { ref: string | null; outcome: 'done' | 'cancel' | 'ban' }) {
    if (!p.ref) return;
    const verb = p.outcome === 'done' ? 'finish' : p.outcome === 'ban' ? 'ban' : 'cancel';
    try {
      await this.get<Order>(`/user/${verb}/${encodeURIComponent(p.ref)}`);
    } catch (err) {
      if (!(err instanceof CodeSupplyError)) throw err;
      if (err.reason === 'order has sms' && verb !== 'finish') {
        await this.get<Order>(`/user/finish/${encodeURIComponent(p.ref)}`);
        return;
      }
      if (err.kind === 'not_offered') return; // gone or expired at 5sim already
      this.log?.debug({ err: err.message, ref: p.ref }, '5sim did not end an order');
      throw err;
    }
  }
}
