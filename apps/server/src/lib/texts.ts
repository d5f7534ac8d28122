import type { Lang } from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };

/**
 * The texts the server writes itself (notifications, mails, precise error messages), from the
 * contract's locale files: one place for every user-facing text, in both languages.
 */
export type ServerTexts = typeof en;
export const serverTexts: Record<Lang, ServerTexts> = { en, zh };

/** `{{name}}` placeholders filled from `vars` (a missing one is left empty). */
export const fill = (s: string, vars: Record<string, string | number> = {}) =>
  s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));

/** One text in both languages (ApiError's precise retmsg). */
export const bothLangs = (pick: (t: ServerTexts) => string, vars?: Record<string, string | number>) => ({
  en: fill(pick(en), vars),
  zh: fill(pick(zh), vars),
});
