import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { currentLang } from './i18n';
import { queryKeys } from './queryKeys';
import { useTranslation } from 'react-i18next';

const CountryList = z.array(
  z.object({ code: z.string(), name: z.string(), telCode: z.string(), show: z.boolean() }),
);
export type CountryEntry = z.infer<typeof CountryList>[number];

/** The static country lists (public/countries/en.json, zh.json), sorted by name in each language. */
export function useCountries() {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : currentLang();
  return useQuery({
    queryKey: queryKeys.countries(lang),
    staleTime: Infinity,
    gcTime: Infinity,
    queryFn: async () => {
      const res = await fetch(`/countries/${lang}.json`);
      if (!res.ok) throw new Error(`countries ${res.status}`);
      return CountryList.parse(await res.json()).filter((c) => c.show);
    },
  });
}
