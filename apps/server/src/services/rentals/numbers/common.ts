import {
  brands,
  constants,
  formatMinor,
  minor,
  type BrandId,
  type Lang,
  type Minor,
  type NumberCountry,
} from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db';
import type { Jobs } from '../../../jobs';
import type { Clock } from '../../../lib/clock';
import { isoDay } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import type { Metrics } from '../../../metrics';
import type { PlanRow } from '../../../repositories/subscriptions';
import type { MailPort } from '../../../providers/mail/port';
import type { NumberSupplyPort, SupplyNumber } from '../../../providers/numbers';
import { fill } from '../../../lib/texts';
import type { Pricing } from '../../pricing';
import type { RentalsEngine } from '../engine';

export type NumbersTexts = typeof en.numbers;
export const texts: Record<Lang, NumbersTexts> = { en: en.numbers, zh: zh.numbers };
export const both = (f: (t: NumbersTexts) => string): Record<Lang, string> => ({
  en: f(texts.en),
  zh: f(texts.zh),
});

export const H = constants.rentals.historyTypes;
export const periodMonths = { month: 1, quarter: 3, year: 12 } as const;
export const perMonth = (p: PlanRow): Minor => minor(Math.round((p.price ?? 0) / periodMonths[p.period]));
export const nameOf = (p: PlanRow, lang: Lang) =>
  texts[lang].planNames[p.group as keyof NumbersTexts['planNames']] ?? p.group;

export const noNumber = () =>
  new ApiError(
    500000,
    null,
    undefined,
    both((t) => t.noNumberForArea),
  );
export const planUnknown = () =>
  new ApiError(
    100001,
    null,
    'planId',
    both((t) => t.planUnknown),
  );
export const notYours = () =>
  new ApiError(
    100003,
    null,
    undefined,
    both((t) => t.numberNotYours),
  );

/** The area code a national number of a New-number country belongs to (NANP: its first 3 digits). */
export const areaOf = (code: NumberCountry, phone: string) =>
  code === 'GB' || code === 'AU' ? undefined : phone.slice(0, 3);

export function subHint(lang: Lang, brand: BrandId, full: string, paymentDate: string, price: Minor) {
  return fill(texts[lang].subHint, {
    number: full,
    date: paymentDate,
    price: formatMinor(brands[brand], price, lang),
  });
}

export interface SubscriptionDeps {
  db: Database;
  pricing: Pricing;
  supply: NumberSupplyPort;
  jobs: Jobs;
  clock: Clock;
  mail: MailPort;
  log: FastifyBaseLogger;
  metrics?: Pick<Metrics, 'renewal' | 'renewalRefused'>;
  /** The renewal engine shared with the other kinds of rental (app.ts); one of its own when absent. */
  rentals?: RentalsEngine;
  /** Tells an account's sockets something changed (a renewal notice); optional. */
  notify?: (accountId: number, event: { kind: 'renewalFailed'; number: string; reclaimOn: string }) => void;
}

/** What the rented numbers' files share: the deps, today's date, the supply's hand-over and give-back. */
export function numbersContext(d: SubscriptionDeps) {
  const today = () => isoDay(d.clock.now());
  const acquireLater = (n: SupplyNumber) =>
    d.supply
      .acquire(n)
      .catch((err: unknown) => d.log.error({ err, number: n.full }, 'number supply: acquire failed'));
  const releaseLater = (n: SupplyNumber) =>
    d.supply
      .release(n)
      .catch((err: unknown) => d.log.error({ err, number: n.full }, 'number supply: release failed'));
  return { d, today, acquireLater, releaseLater };
}

export type NumbersContext = ReturnType<typeof numbersContext>;
