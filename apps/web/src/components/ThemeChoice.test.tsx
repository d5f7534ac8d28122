import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { brands } from '@numa/contract';
import { i18n, loadRestTexts } from '../lib/i18n';
import { applyBrandColors, applyTheme, themeChoice, themeKey, watchTheme } from '../lib/theme';
import { ThemeChoice } from './ThemeChoice';

/** A system setting the test can change, as matchMedia reports it. */
let systemDark = false;
const mediaListeners = new Set<() => void>();
beforeEach(() => {
  systemDark = false;
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query.includes('dark') && systemDark;
    },
    media: query,
    addEventListener: (_: string, fn: () => void) => mediaListeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => mediaListeners.delete(fn),
  })) as unknown as typeof window.matchMedia;
});
afterEach(() => {
  delete document.documentElement.dataset.theme;
});
// the suites of a worker share one jsdom (vitest.config.ts, isolate: false): what this one changed
// goes back as it was (Composer.test found the page in Chinese after it)
const realMatchMedia = window.matchMedia;
afterAll(async () => {
  window.matchMedia = realMatchMedia;
  mediaListeners.clear();
  await i18n.changeLanguage('en');
});
const setSystem = (dark: boolean) => {
  systemDark = dark;
  for (const fn of mediaListeners) fn();
};
const theme = () => document.documentElement.dataset.theme;

describe('lib/theme.ts', () => {
  it('is System by default and follows the system setting live', () => {
    expect(themeChoice()).toBe('system');
    watchTheme();
    expect(theme()).toBe('light');
    setSystem(true);
    expect(theme()).toBe('dark');
    setSystem(false);
    expect(theme()).toBe('light');
  });

  it('applies a kept Light or Dark over the system setting', () => {
    watchTheme();
    window.localStorage.setItem(themeKey, 'dark');
    applyTheme();
    expect(theme()).toBe('dark');
    setSystem(false);
    expect(theme()).toBe('dark');
    window.localStorage.setItem(themeKey, 'light');
    setSystem(true);
    expect(theme()).toBe('light');
    window.localStorage.setItem(themeKey, 'nonsense');
    expect(themeChoice()).toBe('system');
    applyTheme();
    expect(theme()).toBe('dark');
  });

  it("follows another tab's choice (the storage event)", () => {
    watchTheme();
    window.localStorage.setItem(themeKey, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: themeKey, newValue: 'dark' }));
    expect(theme()).toBe('dark');
  });

  it("writes the brand's two sets of colours, the dark one under data-theme", () => {
    applyBrandColors(brands.wetalk.colors, brands.wetalk.colorsDark);
    const css = document.getElementById('brand-colors')!.textContent!;
    expect(css).toContain(`html:root{--primary:${brands.wetalk.colors.primary};`);
    expect(css).toContain(`html:root[data-theme="dark"]{--primary:${brands.wetalk.colorsDark.primary};`);
    expect(css).toContain('--on-primary:');
  });
});

describe('ThemeChoice', () => {
  it.each([
    ['en', 'Theme', ['Light', 'Dark', 'System']],
    ['zh', '主题', ['浅色', '深色', '跟随系统']],
  ] as const)(
    'is a labelled radio group in %s, System checked, choosing by click and arrows',
    async (lang, label, names) => {
      await act(async () => {
        await i18n.changeLanguage(lang);
        await loadRestTexts();
      });
      watchTheme();
      render(
        <I18nextProvider i18n={i18n}>
          <ThemeChoice />
        </I18nextProvider>,
      );
      const group = screen.getByRole('radiogroup', { name: label });
      const radios = screen.getAllByRole('radio');
      expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(names);
      expect(group).toBeTruthy();
      expect((radios[2] as HTMLInputElement).checked).toBe(true);
      await userEvent.click(screen.getByText(names[1]));
      expect(theme()).toBe('dark');
      expect((radios[1] as HTMLInputElement).checked).toBe(true);
      await userEvent.keyboard('{ArrowLeft}');
      expect((radios[0] as HTMLInputElement).checked).toBe(true);
      expect(theme()).toBe('light');
      expect(window.localStorage.getItem(themeKey)).toBe('light');
    },
  );
});
