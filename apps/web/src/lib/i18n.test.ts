import { beforeEach, describe, expect, it } from 'vitest';
import { initialLang, setLang, i18n } from './i18n';
import { keys } from './storage';

describe('starting language (spec 000 §1)', () => {
  beforeEach(() => localStorage.clear());

  it('uses ?country=cn, else the browser language', () => {
    expect(initialLang('?country=cn', 'en-US')).toBe('zh');
    expect(initialLang('?country=CN', 'en-US')).toBe('zh');
    expect(initialLang('', 'zh-CN')).toBe('zh');
    expect(initialLang('', 'en-GB')).toBe('en');
    expect(initialLang('?country=us', 'fr-FR')).toBe('en');
  });

  it('keeps the switch choice over the other rules', async () => {
    await setLang('zh');
    expect(localStorage.getItem(keys.lang)).toBe('zh');
    expect(initialLang('', 'en-US')).toBe('zh');
    expect(i18n.language).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-CN');
    await setLang('en');
    expect(initialLang('?country=cn', 'zh-CN')).toBe('en');
  });

  it('every English key has a Chinese text', async () => {
    const en = (await import('../locales/en.json')).default as Record<string, unknown>;
    const zh = (await import('../locales/zh.json')).default as Record<string, unknown>;
    const flat = (o: Record<string, unknown>, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === 'object' ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`],
      );
    const zhKeys = new Set(flat(zh));
    expect(flat(en).filter((k) => !zhKeys.has(k))).toEqual([]);
  });
});
