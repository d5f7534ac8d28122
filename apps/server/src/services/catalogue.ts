import type { Lang } from '@numa/contract';
import type { Database } from '../db';
import { catalogueRepo } from '../repositories/catalogue';

const regionNames = {
  en: new Intl.DisplayNames(['en'], { type: 'region' }),
  zh: new Intl.DisplayNames(['zh-Hans'], { type: 'region' }),
};
const tollFree = { en: 'Toll-free', zh: '免费号码' };

/** The code-receiving catalogue: apps and countries (the applist front page uses it anonymously). */
export function createCatalogueService(db: Database) {
  return {
    async appList(lang: Lang) {
      const [apps, countries] = await Promise.all([
        catalogueRepo.apps(db.q, lang),
        catalogueRepo.countries(db.q),
      ]);
      return {
        appList: apps,
        countrys: countries.map((c) => ({
          ...c,
          name: c.code === 'TollFree' ? tollFree[lang] : (regionNames[lang].of(c.code) ?? c.code),
        })),
      };
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
