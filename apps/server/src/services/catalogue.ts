import type { Lang } from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { Database } from '../db';
import { catalogueRepo } from '../repositories/catalogue';

const regionNames = {
  en: new Intl.DisplayNames(['en'], { type: 'region' }),
  zh: new Intl.DisplayNames(['zh-Hans'], { type: 'region' }),
};
/** The toll-free "country" in the contract's locale files. */
const tollFree = { en: en.catalogue.tollFree, zh: zh.catalogue.tollFree };

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
