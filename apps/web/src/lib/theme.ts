import type { BrandColors } from '@numa/contract/brands';

/**
 * Light and dark themes (issue 22 §5; docs/decisions.md "Dark mode"). The page's theme is
 * `data-theme="light|dark"` on <html>: index.html's boot script sets it before the first paint from
 * the choice kept in this browser (`numa.theme`: light, dark, or nothing for the system's setting),
 * and `watchTheme` keeps it up to date: when the choice changes (here, in another tab or in a frame
 * of this origin) and, on System, when the system's setting does. Used by the web client and the
 * embedded plans page alike; the choice itself is made in components/ThemeChoice.tsx (lazy).
 */
export type ThemeChoice = 'light' | 'dark' | 'system';

/** The localStorage key, also read by the boot script of index.html and plans/index.html. */
export const themeKey = 'numa.theme';

export function themeChoice(): ThemeChoice {
  let v: string | null = null;
  try {
    v = localStorage.getItem(themeKey);
  } catch {
    /* private mode: the system's setting */
  }
  return v === 'light' || v === 'dark' ? v : 'system';
}

/** Sets `data-theme` for a choice (the current one by default). */
export function applyTheme(choice = themeChoice()) {
  document.documentElement.dataset.theme =
    choice === 'system'
      ? window.matchMedia?.('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light'
      : choice;
}

let watching = false;
/** Applies the choice now and follows it: the system's setting live, other tabs' and frames' choices. */
export function watchTheme() {
  applyTheme();
  if (watching) return;
  watching = true;
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme());
  window.addEventListener('storage', (e) => {
    if (e.key === themeKey || e.key === null) applyTheme();
  });
}

const block = (colors: BrandColors) =>
  Object.entries(colors)
    .map(([k, v]) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${v}`)
    .join(';');

/**
 * The brand's colours as CSS variables for both themes, in a <style> of their own (not inline on
 * <html>, which would win over the dark theme's rule).
 */
export function applyBrandColors(colors: BrandColors, colorsDark: BrandColors) {
  const el = document.createElement('style');
  el.id = 'brand-colors';
  el.textContent = `html:root{${block(colors)}}html:root[data-theme="dark"]{${block(colorsDark)}}`;
  document.head.appendChild(el);
}
