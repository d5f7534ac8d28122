import { useSyncExternalStore } from 'react';
import { demo as demoEn, plans as en } from '../locales/en.json';
import { demo as demoZh, plans as zh } from '../locales/zh.json';
import { page } from './params';

/**
 * The page's texts: the `plans` key of the web client's locales (only that key, and `demo` for the
 * demo banner, are bundled), in the language the host gave in the query and then tells by message.
 */
type Lang = 'en' | 'zh';
let lang: Lang = page.languagecode === 'zh_cn' ? 'zh' : 'en';
const listeners = new Set<() => void>();
const dicts: Record<Lang, unknown> = { en: { ...en, demo: demoEn }, zh: { ...zh, demo: demoZh } };

export function setLang(next: Lang) {
  if (next === lang) return;
  lang = next;
  document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
  listeners.forEach((l) => l());
}
document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';

const lookup = (d: unknown, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>(
      (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      d,
    );

export function translate(l: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const s = lookup(dicts[l], key) ?? lookup(dicts.en, key);
  if (typeof s !== 'string') return key;
  return s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
}

export function useT() {
  const l = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => lang,
  );
  return { lang: l, t: (key: string, vars?: Record<string, string | number>) => translate(l, key, vars) };
}
