import { useQuery } from '@tanstack/react-query';
import { constants, type CountryRate, type RateType } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { currentLang } from '../../../lib/i18n';
import { queryKeys } from '../../../lib/queryKeys';

/** Every country of a tab (pages of 100), named in the caller's language. */
async function allRates(rateType: RateType): Promise<CountryRate[]> {
  const out: CountryRate[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const page = await call(
      endpoints.getCountryRates,
      { rateType, pageNo, pageSize: constants.pageSize.rates, rateCountryCode: constants.defaultRateCountry },
      { silent: true },
    );
    out.push(...page.countryRateList);
    if (out.length >= page.totalRows || page.countryRateList.length === 0) return out;
  }
}

/** A tab's rates, every country. */
export const useRates = (rateType: RateType) =>
  useQuery({
    queryKey: queryKeys.rates(rateType, currentLang()),
    queryFn: () => allRates(rateType),
    staleTime: 300_000,
  });
