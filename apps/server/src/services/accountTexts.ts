import type { Lang } from '@numa/contract';
import { fill } from '../lib/texts';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };

type AccountTexts = typeof en.account;
/** Keys of the account area's plain texts (not the lists). */
export type AccountTextKey = {
  [K in keyof AccountTexts]: AccountTexts[K] extends string ? K : never;
}[keyof AccountTexts];

const texts: Record<Lang, AccountTexts> = { en: en.account, zh: zh.account };

/** One account-area text in both languages (for ApiError's precise retmsg). */
export const accountText = (
  key: AccountTextKey,
  vars?: Record<string, string | number>,
): Record<Lang, string> => ({
  en: fill(texts.en[key], vars),
  zh: fill(texts.zh[key], vars),
});

/** The account area's texts in one language (lists included). */
export const accountTexts = (lang: Lang): AccountTexts => texts[lang];
