import { constants, type BrandId, type Minor } from '@numa/contract';
import type { Database } from '../../db';
import { idemKey } from '../../lib/idem';
import { phoneFacts } from '../../lib/sms';
import { codesRepo } from '../../repositories/codes';
import { ledger } from '../../repositories/ledger';
import { ratesRepo } from '../../repositories/rates';
import { CodeSupplyError, type CodeSupplyPort } from '../../providers/codes/port';

export class CodesRuleError extends Error {}

/**
 * The operator's side of verification codes (`npm run admin -- codes …`): the newest locks and
 * code SMS, numbers added to the pool, fees set, and a code refunded with its own bill (type 8,
 * once per code).
 */
export function createCodesOperator(db: Database, supply?: CodeSupplyPort) {
  return {
    /** A real supplier's price and stock of an app's numbers in a country (its getPrices); null: not sold. */
    async supplierPrices(app: string, country: string) {
      if (!supply?.prices)
        throw new CodesRuleError(
          `The code supplier (${supply?.name ?? 'none'}) keeps no price list: its numbers cost what \`codes fee\` sets.`,
        );
      try {
        return { supplier: supply.name, prices: await supply.prices({ app, country }) };
      } catch (err) {
        if (err instanceof CodeSupplyError) throw new CodesRuleError(`The supplier answered: ${err.message}`);
        throw err;
      }
    },

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
