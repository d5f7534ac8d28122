import en from './locales/en.json' with { type: 'json' };
import zh from './locales/zh.json' with { type: 'json' };
import type { Lang } from './common';
import { constants } from './constants';

export type BillTypeName = keyof typeof constants.billTypes;

const names = Object.fromEntries(Object.entries(constants.billTypes).map(([k, v]) => [v, k])) as Record<
  number,
  BillTypeName
>;

/** The name of a bill type code (`constants.billTypes`), or undefined for a code the contract does not know. */
export const billTypeName = (type: number): BillTypeName | undefined => names[type];

/**
 * What a bill type is called in a language (the bill history, its CSV): the contract's locales
 * (`billTypes`); the web client shows the same texts from its own catalogue (a test keeps them
 * equal). Read inside the function, like `retmsg`, so a bundle that never calls it leaves the
 * catalogues out.
 */
export function billTypeLabel(type: number, lang: Lang): string {
  const name = names[type];
  if (!name) return String(type);
  const texts: Record<string, string> = (lang === 'zh' ? zh : en).billTypes;
  return texts[name] ?? en.billTypes[name] ?? name;
}
