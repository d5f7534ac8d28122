/**
 * Speech-to-text languages (spec 000 §2: about 130 locales, starting with an automatic option). Tags are
 * BCP 47 as speech services take them; their names come from the browser (Intl.DisplayNames) in the
 * interface language, so the list reads naturally in English and Chinese without 130 hand-made names.
 */
import { sttLanguageTags, type SttLanguageTag } from '@numa/contract';

/** The list lives in the contract (the server maps the same tags to its provider's codes). */
export { sttLanguageTags, type SttLanguageTag };

/** Intl names 'cmn' by its macro-language; ask for the display name through the usual tag. */
const displayTag = (tag: string) =>
  tag
    .replace(/^cmn-Hans-/, 'zh-Hans-')
    .replace(/^cmn-Hant-/, 'zh-Hant-')
    .replace(/^yue-Hant-/, 'yue-');

/** The name of a language in the interface language ('auto' is named by the caller). */
export function sttLanguageName(tag: string, uiLang: 'en' | 'zh'): string {
  try {
    const names = new Intl.DisplayNames([uiLang === 'zh' ? 'zh-CN' : 'en'], {
      type: 'language',
      languageDisplay: 'standard',
    });
    return names.of(displayTag(tag)) ?? tag;
  } catch {
    return tag;
  }
}
