import { constants, type BrandId, type Minor } from '@numa/contract';
import type { Database } from '../../db';
import { idemKey } from '../../lib/idem';
import { phoneFacts } from '../../lib/sms';
import { codesRepo } from '../../repositories/codes';
import { ledger } from '../../repositories/ledger';
import { ratesRepo } from '../../repositories/rates';
import { CodeSupplyError, type CodeSupplyPort } from '../../providers/codes/port';
import { codeSuppliersRepo } from '../../repositories/codeSuppliers';
import type { Clock } from '../../lib/clock';

export class CodesRuleError extends Error {}

/**
 * The operator's side of verification codes (`npm run admin -- codes …`): the newest locks and
 * code SMS, numbers added to the pool, fees set, and a code refunded with its own bill (type 8,
 * once per code).
 */
/** The suppliers a route may name (the adapters there are; a route may name one not configured yet). */
export const supplierNames = ['smsactivate', '5sim'] as const;

export function createCodesOperator(db: Database, suppliers: readonly CodeSupplyPort[] = [], clock?: Clock) {
  const now = () => new Date(clock?.now() ?? Date.now());
  const real = suppliers.filter((s) => s.handsOutNumbers);
  return {
    /** Each real supplier's price and stock of an app's numbers in a country (null: not sold; error: its answer). */
    async supplierPrices(app: string, country: string) {
      const priced = suppliers.filter((s) => s.prices);
      if (!priced.length)
        throw new CodesRuleError(
          `The code supplier (${suppliers[0]?.name ?? 'none'}) keeps no price list: its numbers cost what \`codes fee\` sets.`,
        );
      return Promise.all(
        priced.map(async (s) => {
          try {
            return { supplier: s.name, prices: await s.prices!({ app, country }) };
          } catch (err) {
            if (err instanceof CodeSupplyError)
              return {
                supplier: s.name,
                prices: null,
                error: `${err.message}${err.action ? ` (${err.action})` : ''}`,
              };
            throw err;
          }
        }),
      );
    },

    /** Each supplier's state as the servers saw it, its recent refusals, and the orders set per app and country. */
    async supplierStatus(limit = 20) {
      const [states, events, routes] = await Promise.all([
        codeSuppliersRepo.states(db.q),
        codeSuppliersRepo.recentEvents(db.q, limit),
        codeSuppliersRepo.routes(db.q),
      ]);
      const names = [...new Set([...real.map((s) => s.name), ...states.map((s) => s.supplier)])];
      return {
        configured: real.map((s) => s.name),
        suppliers: names.map((name) => ({
          name,
          configured: real.some((s) => s.name === name),
          state: states.find((s) => s.supplier === name) ?? null,
        })),
        events,
        routes,
        now: now(),
      };
    },

    /** The order suppliers are asked in for an app ('*' any) in a country ('*' any). */
    async setSupplierOrder(app: string, country: string, names: string[]) {
      if (!names.length) throw new CodesRuleError('Name at least one supplier.');
      const known = new Set<string>([...supplierNames, ...real.map((s) => s.name)]);
      const unknown = names.filter((n) => !known.has(n));
      if (unknown.length)
        throw new CodesRuleError(
          `Unknown supplier(s): ${unknown.join(', ')} (known: ${[...known].join(', ')}).`,
        );
      if (new Set(names).size !== names.length) throw new CodesRuleError('A supplier is named twice.');
      await codeSuppliersRepo.setRoute(db.q, { app, country, suppliers: names, now: now() });
      return { notConfigured: names.filter((n) => !real.some((s) => s.name === n)) };
    },

    clearSupplierOrder: (app: string, country: string) => codeSuppliersRepo.clearRoute(db.q, app, country),

    /** Ends a supplier's pause at once (the operator fixed what it refused for). */
    resumeSupplier: (name: string) => codeSuppliersRepo.resume(db.q, name),

    locks: (brand: BrandId, limit = 30) => codesRepo.recentLocks(db.q, brand, limit),
    codes: (brand: BrandId, limit = 30) => codesRepo.recentSms(db.q, brand, limit),

    /** Adds numbers (full, with their country code) to a supplier's pool; apps '' takes every app. */
    async addToPool(numbers: string[], p: { supplier: string; apps: string }) {
      const rows = numbers.map((n) => {
        const f = phoneFacts(n);
        if (!f || !f.country)
          throw new CodesRuleError(
            `${n} is not a valid phone number with its country code (e.g. +12065550100).`,
          );
        return { phone: f.full, country: f.country, telCode: f.telCode, supplier: p.supplier, apps: p.apps };
      });
      return codesRepo.addToPool(db.q, rows);
    },

    /** Sets the price of a code (kind `code`) or of keeping a number a month (`code_month`). */
    async setFee(p: {
      currency: 'usd' | 'cny';
      kind: 'code' | 'code_month';
      app: string;
      country: string;
      amount: Minor;
    }) {
      await db.tx((tx) =>
        ratesRepo.importRates(tx, [
          {
            currency: p.currency,
            kind: p.kind,
            origin: '*',
            country: p.country,
            variant: p.app,
            amount: p.amount,
          },
        ]),
      );
    },

    /** Gives a code's charge back (bill type 8); a second refund of the same code changes nothing. */
    async refund(smsId: string) {
      const sms = await codesRepo.smsBySmsId(db.q, smsId);
      if (!sms) throw new CodesRuleError(`No code SMS ${smsId}.`);
      if (sms.charge <= 0) throw new CodesRuleError(`Code SMS ${smsId} was not charged.`);
      return db.tx(async (tx) => {
        const { row, applied } = await ledger.apply(tx, {
          accountId: sms.accountId,
          type: constants.billTypes.refund,
          charge: sms.charge,
          options: { smsId, number: sms.phone, app: sms.app },
          idempotencyKey: idemKey('code-refund', smsId),
        });
        return { row, applied, sms };
      });
    },
  };
}

export type CodesOperator = ReturnType<typeof createCodesOperator>;
