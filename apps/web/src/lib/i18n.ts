import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { codeFromLang, type Lang } from '@numa/contract';
import contractEn from '@numa/contract/locales/en.json' with { type: 'json' };
import en from '../locales/en.json?texts=entry';
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

type Texts = Record<string, unknown>;

/**
 * The texts come in two parts per language (vite.config.ts `splitTexts`, docs/decisions.md "Texts in
 * two parts"): the entry part (what the login screen, the signed-in shell and the chats screen show)
 * and the rest, fetched the first time a lazily loaded screen, panel or dialog opens
 * (components/lazy.tsx waits for it) or a text is missing. English's entry part is in the entry;
 * Chinese's is a chunk loaded before the first render when the page starts in Chinese (main.tsx
 * awaits `i18nReady`) and by the switch before it changes the language.
 */
const parts: Record<Lang, { entry: () => Promise<Texts>; rest: () => Promise<Texts> }> = {
  en: {
    entry: () => Promise.resolve({ ...en, retcode: contractEn.retcode }),
    rest: () => import('../locales/en.json?texts=rest').then((m) => m.default),
  },
  zh: {
    entry: () =>
      Promise.all([
        import('../locales/zh.json?texts=entry'),
        import('@numa/contract/locales/zh.json?texts=retcode'),
      ]).then(([zh, contract]) => ({ ...zh.default, retcode: contract.default.retcode })),
    rest: () => import('../locales/zh.json?texts=rest').then((m) => m.default),
  },
};

const loads = new Map<string, Promise<void>>();
function loadPart(lang: Lang, part: 'entry' | 'rest'): Promise<void> {
  const key = `${lang}:${part}`;
  let loading = loads.get(key);
  if (!loading) {
    loading = parts[lang][part]().then((texts) => {
      i18n.addResourceBundle(lang, 'translation', texts, true, true);
    });
    // a failed fetch (offline) is tried again by the next caller
    loading.catch(() => loads.delete(key));
    loads.set(key, loading);
  }
  return loading;
}

let restWanted = false;
/** The rest of the texts in the page's language; resolves once they are in. */
export function loadRestTexts(): Promise<void> {
  restWanted = true;
  return loadPart(currentLang(), 'rest');
}

const startLang = initialLang();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: { ...en, retcode: contractEn.retcode } } },
  lng: startLang,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // a text outside the entry part asked for before the rest came: fetch the rest, and re-render
  // what asked once it is in (react-i18next listens to `added`)
  saveMissing: true,
  missingKeyHandler: (_lngs, _ns, key) => {
    if (!key.startsWith('retcode.')) void loadRestTexts().catch(() => {});
  },
  react: { bindI18nStore: 'added' },
});
loads.set('en:entry', Promise.resolve());

/** Resolves once the starting language's texts are in. */
export const i18nReady: Promise<void> =
  startLang === 'zh' ? loadPart('zh', 'entry').then(() => void i18n.changeLanguage('zh')) : Promise.resolve();

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
  await Promise.all([loadPart(lang, 'entry'), restWanted ? loadPart(lang, 'rest') : undefined]);
  await i18n.changeLanguage(lang);
}
