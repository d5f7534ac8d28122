import type { BrandColors } from '@numa/contract/brands';

/**
 * Light and dark themes (issue 22 §5; docs/decisions.md "Dark mode"). The page's theme is
 * `data-theme="light|dark"` on <html>: index.html's boot script sets it before the first paint from
 * the choice kept in this browser (`numa.theme`: light, dark, or nothing for the system's setting),
 * and this module keeps it up to date: when the choice changes (here or in another tab or frame of
 * this origin) and, on System, when the system's setting does. Used by the web client and the
 * embedded plans page alike.
 */
export type ThemeChoice = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

/** The localStorage key, also read by the boot script of index.html and plans/index.html. */
export const themeKey = 'numa.theme';

const darkQuery = '(prefers-color-scheme: dark)';

export function themeChoice(): ThemeChoice {
  let v: string | null = null;
  try {
    v = window.localStorage.getItem(themeKey);
  } catch {
    /* private mode: the system's setting */
  }
  return v === 'light' || v === 'dark' ? v : 'system';
}

const systemDark = () =>
  typeof window.matchMedia === 'function' && window.matchMedia(darkQuery).matches;

/** The theme a choice gives now. */
export const themeOf = (choice: ThemeChoice): Theme =>
  choice === 'system' ? (systemDark() ? 'dark' : 'light') : choice;

const listeners = new Set<() => void>();

function apply() {
  const theme = themeOf(themeChoice());
  if (document.documentElement.dataset.theme !== theme) document.documentElement.dataset.theme = theme;
  for (const fn of listeners) fn();
}

/** Keeps the choice in this browser and applies it at once. */
export function setThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === 'system') window.localStorage.removeItem(themeKey);
    else window.localStorage.setItem(themeKey, choice);
  } catch {
    /* not kept: applies to this page only */
    document.documentElement.dataset.theme = themeOf(choice);
    for (const fn of listeners) fn();
    return;
  }
  apply();
}

/** Calls `fn` whenever the choice or the applied theme may have changed; returns the unsubscribe. */
export function onThemeChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

let watching = false;
/** Applies the choice now and follows it: the system's setting live, other tabs' and frames' choices. */
export function watchTheme() {
  apply();
  if (watching) return;
  watching = true;
  if (typeof window.matchMedia === 'function') window.matchMedia(darkQuery).addEventListener('change', apply);
  window.addEventListener('storage', (e) => {
    if (e.key === themeKey || e.key === null) apply();
  });
}

const cssName = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const block = (colors: BrandColors) =>
  Object.entries(colors)
    .map(([k, v]) => `${cssName(k)}:${v}`)
    .join(';');

/**
 * The brand's colours as CSS variables for both themes, in a <style> of their own (not inline on
 * <html>, which would win over the dark theme's rule).
 */
export function applyBrandColors(colors: BrandColors, colorsDark: BrandColors) {
  let el = document.getElementById('brand-colors');
  if (!el) {
    el = document.createElement('style');
    el.id = 'brand-colors';
    document.head.appendChild(el);
  }
  el.textContent = `html:root{${block(colors)}}html:root[data-theme="dark"]{${block(colorsDark)}}`;
}
