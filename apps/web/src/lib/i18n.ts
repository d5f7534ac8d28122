import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { codeFromLang, type Lang } from '@numa/contract';
import contractEn from '@numa/contract/locales/en.json' with { type: 'json' };
import contractZh from '@numa/contract/locales/zh.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };
import zh from '../locales/zh.json' with { type: 'json' };
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

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: { ...en, retcode: contractEn.retcode } },
    zh: { translation: { ...zh, retcode: contractZh.retcode } },
  },
  lng: initialLang(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

const applyDocumentLang = (lang: string) => {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
};
applyDocumentLang(i18n.language);
i18n.on('languageChanged', applyDocumentLang);

export const currentLang = (): Lang => (i18n.language === 'zh' ? 'zh' : 'en');
export const currentLanguageCode = () => codeFromLang(currentLang());

/** The EN/中文 switch: keeps the choice. */
export function setLang(lang: Lang) {
  storage.set(keys.lang, lang);
  void i18n.changeLanguage(lang);
}
