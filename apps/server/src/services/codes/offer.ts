import { constants, fromMinor, type BrandId, type Lang, type Minor, type PhoneOption } from '@numa/contract';
import { isoDay } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { catalogueRepo } from '../../repositories/catalogue';
import { codesRepo } from '../../repositories/codes';
import { codeTexts, type CodesContext } from './context';
import { fill } from '../../lib/texts';

/** What is offered (spec 001 §2): the numbers an app may be received on, and the prices. */
export function createOffer(ctx: CodesContext) {
  const { db } = ctx.deps;
  const { poolSuppliers, now, checkAppAndCountry, fees } = ctx;

  return {
    /** getVerificationCodePhoneListV2 / the anonymous list: the account's own numbers first, then free pool numbers. */
    async phoneList(p: {
      accountId: number | null;
      app: string;
      country: string;
      lang: Lang;
    }): Promise<{ numbers: PhoneOption[] }> {
      const { telCode } = await checkAppAndCountry(p.app, p.country, p.lang);
      const t = now();
      const own = p.accountId
        ? await codesRepo.accountNumbers(db.q, {
            accountId: p.accountId,
            app: p.app,
            country: p.country,
            now: t,
          })
        : [];
      const ownPhones = new Set(own.map((n) => n.phone));
      const free = await codesRepo.freeNumbers(db.q, {
        suppliers: poolSuppliers,
        app: p.app,
        country: p.country,
        accountId: p.accountId,
        now: t,
        limit: 50,
      });
      const live = p.accountId
        ? await Promise.all(own.map((n) => codesRepo.liveLock(db.q, n.phone, p.app)))
        : [];
      return {
        numbers: [
          ...own.map((n, i) => {
            const lock = live[i];
            const heldByOther = !!lock && lock.accountId !== p.accountId && lock.expiresAt > t;
            return {
              phone: n.phone,
              subStatus: n.subStatus === 1 ? (1 as const) : (0 as const),
              telCode,
              tip: fill(codeTexts(p.lang).ownTip, { until: isoDay(n.validUntil) }),
              canGetNumber: !heldByOther,
              numberType: constants.codes.numberTypes.subscribable,
            };
          }),
          ...free
            .filter((n) => !ownPhones.has(n.phone))
            .map((n) => ({
              phone: n.phone,
              subStatus: 0 as const,
              telCode: n.telCode,
              tip: '',
              canGetNumber: true,
              numberType: constants.codes.numberTypes.subscribable,
            })),
        ],
      };
    },

    async fee(p: { brand: BrandId; app: string; country: string; lang: Lang }) {
      await checkAppAndCountry(p.app, p.country, p.lang);
      const { fee, subRent } = await fees(p.brand, p.app, p.country);
      if (fee === null) throw new ApiError(500000, null, 'codes of this app and country are not offered');
      return { fee: fromMinor(fee), subRent: fromMinor(subRent ?? (0 as Minor)) };
    },

    /** The code price of an app in a country for a brand (null: not offered), and the catalogue. */
    async offer(brand: BrandId, lang: Lang) {
      const [apps, countries] = await Promise.all([
        catalogueRepo.apps(db.q, lang),
        catalogueRepo.countries(db.q),
      ]);
      return {
        apps,
        countries,
        fee: async (app: string, country: string) => (await fees(brand, app, country)).fee,
        /** Numbers free for an app in a country now (at most 50 are counted). */
        free: async (app: string, country: string) =>
          (
            await codesRepo.freeNumbers(db.q, {
              suppliers: poolSuppliers,
              app,
              country,
              accountId: null,
              now: now(),
              limit: 50,
            })
          ).length,
      };
    },
  };
}
