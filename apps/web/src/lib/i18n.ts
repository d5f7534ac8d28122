import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { codeFromLang, type Lang } from '@numa/contract';
import contractEn from '@numa/contract/locales/en.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };
import { brand } from './config';
import { keys, storage } from './storage';

/**
 * The starting language (spec 000 §1): Chinese on the brands the brand table marks; else a choice
 * kept from the EN/中文 switch; else `?country=cn`; else the browser's language.
 */
export function initialLang(search = window.location.search, navigatorLang = navigator.language): Lang {
  if (brand.hideLanguageSwitch && brand.defaultLocale) return brand.defaultLocale;
  const kept = storage.get(keys.lang);
  if (kept === 'en' || kept === 'zh') return kept;
  if (brand.defaultLocale) return brand.defaultLocale;
  if (new URLSearchParams(search).get('country')?.toLowerCase() === 'cn') return 'zh';
  return navigatorLang.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export const i18n = i18next.createInstance();

/**
 * English is in the entry (the default and the fallback); Chinese texts are a chunk of their own,
 * loaded before the first render when the page starts in Chinese (main.tsx awaits `i18nReady`) and
 * by the switch before it changes the language.
 */
let zhLoading: Promise<void> | null = null;
function loadZh(): Promise<void> {
  zhLoading ??= Promise.all([import('../locales/zh.json'), import('@numa/contract/locales/zh.json')]).then(
    ([zh, contractZh]) => {
      i18n.addResourceBundle(
        'zh',
        'translation',
        { ...zh.default, retcode: contractZh.default.retcode },
        true,
        true,
      );
    },
  );
  return zhLoading;
}

const startLang = initialLang();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: { ...en, retcode: contractEn.retcode } } },
  lng: startLang,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Resolves once the starting language's texts are in. */
export const i18nReady: Promise<void> =
  startLang === 'zh' ? loadZh().then(() => void i18n.changeLanguage('zh')) : Promise.resolve();

const applyDocumentLang = (lang: string) => {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
};
applyDocumentLang(i18n.language);
i18n.on('languageChanged', applyDocumentLang);

export const currentLang = (): Lang => (i18n.language === 'zh' ? 'zh' : 'en');
export const currentLanguageCode = () => codeFromLang(currentLang());

/**
 * A retcode's message in the page's language (the contract's catalogues, merged into the texts
 * above; English when Chinese has none; the generic failure for an unknown code): the contract's
 * `retmsg` without bundling both catalogues into the client's chunks.
 */
export const retcodeText = (code: number): string =>
  i18n.t(`retcode.${code}`, { defaultValue: i18n.t('retcode.100000') });

/** The EN/中文 switch: keeps the choice. */
export async function setLang(lang: Lang): Promise<void> {
  storage.set(keys.lang, lang);
  if (lang === 'zh') await loadZh();
  await i18n.changeLanguage(lang);
}
