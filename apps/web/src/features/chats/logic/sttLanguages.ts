/**
 * Speech-to-text languages (spec 000 §2: about 130 locales, starting with an automatic option). Tags are
 * BCP 47 as speech services take them; their names come from the browser (Intl.DisplayNames) in the
 * interface language, so the list reads naturally in English and Chinese without 130 hand-made names.
 */
export const sttLanguageTags = [
  'auto',
  'af-ZA', 'am-ET', 'ar-AE', 'ar-BH', 'ar-DZ', 'ar-EG', 'ar-IQ', 'ar-JO', 'ar-KW', 'ar-LB', 'ar-MA', 'ar-OM', 'ar-QA', 'ar-SA', 'ar-TN', 'ar-YE',
  'az-AZ', 'bg-BG', 'bn-BD', 'bn-IN', 'bs-BA', 'ca-ES', 'cs-CZ', 'da-DK', 'de-AT', 'de-CH', 'de-DE', 'el-GR',
  'en-AU', 'en-CA', 'en-GB', 'en-GH', 'en-HK', 'en-IE', 'en-IN', 'en-KE', 'en-NG', 'en-NZ', 'en-PH', 'en-PK', 'en-SG', 'en-TZ', 'en-US', 'en-ZA',
  'es-AR', 'es-BO', 'es-CL', 'es-CO', 'es-CR', 'es-DO', 'es-EC', 'es-ES', 'es-GT', 'es-HN', 'es-MX', 'es-NI', 'es-PA', 'es-PE', 'es-PR', 'es-PY', 'es-SV', 'es-US', 'es-UY', 'es-VE',
  'et-EE', 'eu-ES', 'fa-IR', 'fi-FI', 'fil-PH', 'fr-BE', 'fr-CA', 'fr-CH', 'fr-FR', 'gl-ES', 'gu-IN', 'he-IL', 'hi-IN', 'hr-HR', 'hu-HU', 'hy-AM',
  'id-ID', 'is-IS', 'it-CH', 'it-IT', 'ja-JP', 'jv-ID', 'ka-GE', 'kk-KZ', 'km-KH', 'kn-IN', 'ko-KR', 'lo-LA', 'lt-LT', 'lv-LV', 'mk-MK', 'ml-IN',
  'mn-MN', 'mr-IN', 'ms-MY', 'my-MM', 'ne-NP', 'nl-BE', 'nl-NL', 'no-NO', 'pa-IN', 'pl-PL', 'pt-BR', 'pt-PT', 'ro-RO', 'ru-RU', 'si-LK', 'sk-SK',
  'sl-SI', 'sq-AL', 'sr-RS', 'su-ID', 'sv-SE', 'sw-KE', 'sw-TZ', 'ta-IN', 'ta-LK', 'ta-MY', 'ta-SG', 'te-IN', 'th-TH', 'tr-TR', 'uk-UA', 'ur-IN',
  'ur-PK', 'uz-UZ', 'vi-VN', 'yue-Hant-HK', 'cmn-Hans-CN', 'cmn-Hant-TW', 'zu-ZA',
] as const;
export type SttLanguageTag = (typeof sttLanguageTags)[number];

/** Intl names 'cmn' by its macro-language; ask for the display name through the usual tag. */
const displayTag = (tag: string) => tag.replace(/^cmn-Hans-/, 'zh-Hans-').replace(/^cmn-Hant-/, 'zh-Hant-').replace(/^yue-Hant-/, 'yue-');

/** The name of a language in the interface language ('auto' is named by the caller). */
export function sttLanguageName(tag: string, uiLang: 'en' | 'zh'): string {
  try {
    const names = new Intl.DisplayNames([uiLang === 'zh' ? 'zh-CN' : 'en'], { type: 'language', languageDisplay: 'standard' });
    return names.of(displayTag(tag)) ?? tag;
  } catch {
    return tag;
  }
}
