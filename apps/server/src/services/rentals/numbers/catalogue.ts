import {
  constants,
  fromMinor,
  zeroMinor,
  type AreaCountry,
  type BrandId,
  type Lang,
  type NumberCountry,
  type NumberKind,
  type Plan,
} from '@numa/contract';
import { addMonthsIso } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { subscriptionsRepo, type PlanRow } from '../../../repositories/subscriptions';
import { SupplyUnavailableError, type SupplyNumber } from '../../../providers/numbers';
import { caAreaCodes, provinceCodes, tollFreeCodes, usAreaCodes } from '../../../providers/numbers/areaCodes';
import { periodMonths, perMonth, texts, type NumbersContext, type NumbersTexts } from './common';

/** The New-number catalogue (issue 11): areas, the free numbers of an area, a country's plans. */
export function createNumberCatalogue(ctx: NumbersContext) {
  const { d, today } = ctx;
  const { db, pricing, supply } = d;

  /** A plan as the pages show it, with its discount against the monthly price of its group. */
  function toPlan(p: PlanRow, group: PlanRow[], lang: Lang): Plan {
    const t = texts[lang];
    const monthly = group.find((g) => g.group === p.group && g.period === 'month');
    const discount =
      monthly?.price && p.price !== null
        ? Math.max(0, Math.round((1 - perMonth(p) / monthly.price) * 100) / 100)
        : 0;
    return {
      planId: p.id,
      planName: t.planNames[p.group as keyof NumbersTexts['planNames']] ?? p.group,
      planRent: fromMinor(p.price ?? zeroMinor),
      planRentPeriod: p.period,
      chargeType: p.chargeType as Plan['chargeType'],
      monthRent: fromMinor(perMonth(p)),
      activationFee: fromMinor(p.activationFee),
      discount,
      tip: t.planTip,
      nextPaymentDate: addMonthsIso(today(), periodMonths[p.period]),
      planDescList: t.planDesc[p.group as keyof NumbersTexts['planDesc']] ?? [],
      urlDict: {},
    };
  }

  return {
    toPlan,

    /** getAreaCodeV2: the New-number countries with their kinds, provinces and area codes. */
    areas(lang: Lang): { countries: AreaCountry[]; defaultCode: NumberCountry } {
      const t = texts[lang];
      // a state's or province's name in the request's language, ordered as that language sorts
      const names = t.provinces as Record<string, string>;
      const provinces = (m: Record<string, string[]>) =>
        Object.entries(m)
          .map(([english, areaCodes]) => {
            const code = provinceCodes[english] ?? '';
            return { code, name: names[code] ?? english, areaCodes };
          })
          .sort((a, b) => a.name.localeCompare(b.name, lang === 'zh' ? 'zh-Hans-u-co-pinyin' : 'en'));
      const kind = (type: NumberKind, ps: { code: string; name: string; areaCodes: string[] }[]) => ({
        type,
        name: t.kinds[type],
        provinces: ps,
      });
      const countries: AreaCountry[] = [
        {
          code: 'US',
          telCode: '1',
          nameNcode: t.countries.US,
          typeList: [kind('local', provinces(usAreaCodes))],
        },
        {
          code: 'CA',
          telCode: '1',
          nameNcode: t.countries.CA,
          typeList: [kind('local', provinces(caAreaCodes))],
        },
        {
          code: 'GB',
          telCode: '44',
          nameNcode: t.countries.GB,
          typeList: [kind('mobile', [{ code: '', name: '', areaCodes: [] }])],
        },
        {
          code: 'AU',
          telCode: '61',
          nameNcode: t.countries.AU,
          typeList: [kind('mobile', [{ code: '', name: '', areaCodes: [] }])],
        },
        {
          code: 'TollFree',
          telCode: '1',
          nameNcode: t.countries.TollFree,
          typeList: [kind('tollFree', [{ code: '', name: '', areaCodes: tollFreeCodes }])],
        },
      ];
      return { countries, defaultCode: 'US' };
    },

    /** getVirtualPhoneByAreaCode: the area's numbers nobody on the platform holds. */
    async freeNumbers(p: {
      code: NumberCountry;
      type: NumberKind;
      telCode: string;
      areaCode?: string | undefined;
    }) {
      let found: SupplyNumber[];
      try {
        found = await supply.search({ code: p.code, type: p.type, areaCode: p.areaCode }, 50);
      } catch (err) {
        if (!(err instanceof SupplyUnavailableError)) throw err;
        d.log.warn({ err }, 'number supply: search failed');
        throw new ApiError(300002);
      }
      const held = await subscriptionsRepo.held(
        db.q,
        found.map((n) => n.full),
      );
      const numbers = found
        .filter((n) => n.telCode === p.telCode && !held.has(n.full))
        .slice(0, constants.numbersPerArea)
        .map((n) => n.phone);
      return { numbers };
    },

    /** getPlanList: a country's plans and price options in the brand's currency. */
    async planList(p: { brand: BrandId; lang: Lang; code: NumberCountry; type: NumberKind }) {
      const rows = (
        await subscriptionsRepo.plans(db.q, pricing.currencyOf(p.brand), { country: p.code, kind: p.type })
      ).filter((r) => r.price !== null);
      return { planList: rows.map((r) => toPlan(r, rows, p.lang)) };
    },
  };
}
