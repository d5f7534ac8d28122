import { brands, constants, fromMinor } from '@numa/contract';
import type { Database } from '../db';
import type { Env } from '../env';
import type { Clock } from '../lib/clock';
import { isApiError } from '../lib/errors';
import { defaultCountryIds, defaultServiceCodes, earlyCancelMs } from '../providers/codes/smsActivate';
import { smsActivationsRepo } from '../repositories/smsActivations';
import type { AccountService } from './accounts';
import type { ApiPrincipal } from './apiKeys';
import type { CodesService } from './codes';

/** An answer of handler_api.php: plain text (the protocol's words) or JSON, with its HTTP status. */
export interface ProtocolAnswer {
  status: number;
  body: string | Record<string, unknown> | unknown[];
  retryAfter?: number;
}

/**
 * A cancel (setStatus 8) sooner than `earlyCancelMs` (SMS-Activate's own two minutes, from the
 * supplier adapter) after getNumber is refused with EARLY_CANCEL_DENIED, as SMS-Activate does: it
 * keeps a program from churning through the pool's numbers (lock, cancel, lock again). Nothing is
 * charged either way: a lock without a code costs nothing.
 */

const text = (body: string, status = 200): ProtocolAnswer => ({ status, body });

/** What our retcodes are in the protocol's words. */
function refusal(err: unknown): ProtocolAnswer {
  if (!isApiError(err)) throw err;
  switch (err.retcode) {
    case 400001:
      return text('NO_BALANCE');
    case 500000:
    case 400000:
      return text('NO_NUMBERS');
    case 100023:
      return text('ACCOUNT_INACTIVE');
    case 100015: {
      const data = err.data as { retryAfter?: number } | null;
      return { status: 429, body: 'TOO_MANY_REQUESTS', retryAfter: data?.retryAfter ?? 60 };
    }
    case 100001:
      return text('BAD_SERVICE');
    default:
      throw err;
  }
}

const names = {
  en: new Intl.DisplayNames(['en'], { type: 'region' }),
  zh: new Intl.DisplayNames(['zh-Hans'], { type: 'region' }),
  ru: new Intl.DisplayNames(['ru'], { type: 'region' }),
};

/**
 * The SMS-Activate protocol (issue 21) at /stubs/handler_api.php, for the many programs and bots that
 * speak it, over the codes service: an activation is a code lock of the key's account, its id the
 * lock's (an integer), its number the lock's full number with the country code. The same rules as the
 * page: the lock's price is charged once per received code, never without one. Service codes and
 * country ids are SMS-Activate's (the code supplier adapter's maps, with CODE_SUPPLIER_SERVICES /
 * CODE_SUPPLIER_COUNTRIES over them); an app without a code there is asked for by its own id.
 */
export function createSmsActivateService(deps: {
  db: Database;
  env: Env;
  clock: Clock;
  codes: CodesService;
  accounts: AccountService;
}) {
  const { db, clock, codes, accounts } = deps;
  const serviceOf = { ...defaultServiceCodes, ...deps.env.CODE_SUPPLIER_SERVICES };
  const countryIdOf = { ...defaultCountryIds, ...deps.env.CODE_SUPPLIER_COUNTRIES };
  const appOf = new Map(Object.entries(serviceOf).map(([app, code]) => [code, app]));
  const countryOf = new Map(Object.entries(countryIdOf).map(([iso, id]) => [id, iso]));
  const codeOfApp = (app: string) => serviceOf[app] ?? app;

  async function activation(p: ApiPrincipal, id: string | undefined) {
    if (!id || !/^\d{1,15}$/.test(id)) return null;
    const got = await codes.lockOf(p.accountId, { id: Number(id) });
    if (!got) return null;
    const act = await smsActivationsRepo.get(db.q, p.accountId, got.lock.id);
    // only the codes it paid for count (a code the balance could not pay is withheld)
    const paid = got.sms.filter((s) => s.charge > 0);
    return { ...got, act, paid };
  }

  async function getNumber(p: ApiPrincipal, q: Record<string, string>, v2: boolean): Promise<ProtocolAnswer> {
    const app = q.service ? (appOf.get(q.service) ?? q.service) : '';
    const country = q.country !== undefined ? countryOf.get(q.country) : undefined;
    const offer = await codes.offer(p.brand, 'en');
    if (!app || !offer.apps.some((a) => a.app === app)) return text('BAD_SERVICE');
    if (!country || !offer.countries.some((c) => c.code === country)) return text('BAD_COUNTRY');
    const fee = await offer.fee(app, country);
    if (fee === null) return text('NO_NUMBERS');
    if (q.maxPrice !== undefined && q.maxPrice !== '') {
      const max = Number(q.maxPrice);
      if (!Number.isFinite(max) || max < 0) return text('WRONG_MAX_PRICE');
      if (fromMinor(fee) > max) return text(`WRONG_MAX_PRICE:${fromMinor(fee)}`);
    }
    let phone: string;
    try {
      const locked = await codes.lock({
        accountId: p.accountId,
        brand: p.brand,
        lang: 'en',
        app,
        country,
        numberType: constants.codes.numberTypes.temporary,
      });
      phone = locked.phone;
    } catch (err) {
      return refusal(err);
    }
    const got = await codes.lockOf(p.accountId, { number: phone, app });
    if (!got) return text('NO_NUMBERS');
    await smsActivationsRepo.insert(db.q, { lockId: got.lock.id, accountId: p.accountId, keyId: p.keyId });
    if (!v2) return text(`ACCESS_NUMBER:${got.lock.id}:${phone}`);
    return {
      status: 200,
      body: {
        activationId: got.lock.id,
        phoneNumber: phone,
        activationCost: fromMinor(got.lock.fee),
        currency: brands[p.brand].currency.label.en,
        countryCode: countryIdOf[country] ?? country,
        canGetAnotherSms: true,
        activationTime: got.lock.lockedAt.toISOString(),
        activationEndTime: got.lock.expiresAt.toISOString(),
        activationOperator: 'any',
      },
    };
  }

  async function getStatus(p: ApiPrincipal, q: Record<string, string>): Promise<ProtocolAnswer> {
    const a = await activation(p, q.id);
    if (!a) return text('NO_ACTIVATION');
    const retryAt = a.act?.retryAt?.getTime();
    const newest = a.paid[0];
    if (retryAt !== undefined) {
      const fresh = a.paid.find((s) => s.date > retryAt);
      if (fresh) return text(`STATUS_OK:${fresh.code || fresh.text}`);
      if (a.live)
        return text(newest ? `STATUS_WAIT_RETRY:${newest.code || newest.text}` : 'STATUS_WAIT_CODE');
    }
    if (newest) return text(`STATUS_OK:${newest.code || newest.text}`);
    return text(a.live ? 'STATUS_WAIT_CODE' : 'STATUS_CANCEL');
  }

  async function setStatus(p: ApiPrincipal, q: Record<string, string>): Promise<ProtocolAnswer> {
    const a = await activation(p, q.id);
    if (!a) return text('NO_ACTIVATION');
    const now = new Date(clock.now());
    switch (q.status) {
      case '1':
        if (!a.live) return text('BAD_STATUS');
        if (a.act) await smsActivationsRepo.mark(db.q, p.accountId, a.lock.id, 'ready_at', now);
        return text('ACCESS_READY');
      case '3':
        if (!a.live) return text('BAD_STATUS');
        if (a.act) await smsActivationsRepo.mark(db.q, p.accountId, a.lock.id, 'retry_at', now);
        return text('ACCESS_RETRY_GET');
      case '6':
        // finished with its code: the lock ends (its codes stay paid); without a code there is nothing to finish
        if (!a.paid.length) return text('BAD_STATUS');
        await codes.endLockOf(p.accountId, a.lock.id, 'polled_out');
        if (a.act) await smsActivationsRepo.mark(db.q, p.accountId, a.lock.id, 'finished_at', now);
        return text('ACCESS_ACTIVATION');
      case '8':
        // a paid code cannot be taken back: finish it (6) instead
        if (a.paid.length) return text('BAD_STATUS');
        if (!a.live) return text('ACCESS_CANCEL');
        if (now.getTime() - a.lock.lockedAt.getTime() < earlyCancelMs) return text('EARLY_CANCEL_DENIED');
        await codes.endLockOf(p.accountId, a.lock.id, 'released');
        if (a.act) await smsActivationsRepo.mark(db.q, p.accountId, a.lock.id, 'finished_at', now);
        return text('ACCESS_CANCEL');
      default:
        return text('BAD_STATUS');
    }
  }

  async function getPrices(p: ApiPrincipal, q: Record<string, string>): Promise<ProtocolAnswer> {
    const offer = await codes.offer(p.brand, 'en');
    const wantApp = q.service ? (appOf.get(q.service) ?? q.service) : null;
    const wantCountry = q.country !== undefined && q.country !== '' ? (countryOf.get(q.country) ?? '') : null;
    if (wantApp !== null && !offer.apps.some((a) => a.app === wantApp)) return text('BAD_SERVICE');
    if (wantCountry === '') return text('BAD_COUNTRY');
    const out: Record<string, Record<string, { cost: number; count: number }>> = {};
    for (const c of offer.countries) {
      if (!c.show || (wantCountry !== null && c.code !== wantCountry)) continue;
      const id = countryIdOf[c.code];
      if (!id) continue;
      for (const a of offer.apps) {
        if (wantApp !== null && a.app !== wantApp) continue;
        const fee = await offer.fee(a.app, c.code);
        if (fee === null) continue;
        (out[id] ??= {})[codeOfApp(a.app)] = { cost: fromMinor(fee), count: await offer.free(a.app, c.code) };
      }
    }
    return { status: 200, body: out };
  }

  async function getCountries(p: ApiPrincipal): Promise<ProtocolAnswer> {
    const offer = await codes.offer(p.brand, 'en');
    const out: Record<string, unknown> = {};
    for (const c of offer.countries) {
      const id = countryIdOf[c.code];
      if (!id) continue;
      out[id] = {
        id: Number(id),
        rus: names.ru.of(c.code) ?? c.code,
        eng: names.en.of(c.code) ?? c.code,
        chn: names.zh.of(c.code) ?? c.code,
        visible: c.show ? 1 : 0,
        retry: 1,
        rent: 0,
        multiService: 0,
      };
    }
    return { status: 200, body: out };
  }

  async function getServicesList(p: ApiPrincipal): Promise<ProtocolAnswer> {
    const offer = await codes.offer(p.brand, 'en');
    return {
      status: 200,
      body: {
        status: 'success',
        services: offer.apps.map((a) => ({ code: codeOfApp(a.app), name: a.name })),
      },
    };
  }

  return {
    /** The actions a key with the codes scope may take; anything else is BAD_ACTION. */
    async handle(p: ApiPrincipal, q: Record<string, string>): Promise<ProtocolAnswer> {
      switch (q.action) {
        case 'getBalance': {
          const balance = await accounts.balance(p.accountId);
          return text(`ACCESS_BALANCE:${balance.toFixed(brands[p.brand].currency.decimals)}`);
        }
        case 'getNumber':
          return getNumber(p, q, false);
        case 'getNumberV2':
          return getNumber(p, q, true);
        case 'getStatus':
          return getStatus(p, q);
        case 'setStatus':
          return setStatus(p, q);
        case 'getPrices':
          return getPrices(p, q);
        case 'getCountries':
          return getCountries(p);
        case 'getServicesList':
          return getServicesList(p);
        default:
          return text('BAD_ACTION');
      }
    },
  };
}

export type SmsActivateService = ReturnType<typeof createSmsActivateService>;
