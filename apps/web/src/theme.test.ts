import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandIds, brands, contrastRatio, type BrandColors } from '@numa/contract';

/**
 * Issue 22 §5: both themes keep every text pair at WCAG AA (4.5:1) on every brand. The neutrals are
 * read from the stylesheets themselves (the `:root` block and the `:root[data-theme='dark']` block),
 * the brand's colours from brands.ts (`colors`, `colorsDark`), as the page combines them.
 */
function variables(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  expect(at, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(at, css.indexOf('}', at));
  return Object.fromEntries(
    [...body.matchAll(/--([\w-]+):\s*(#[0-9a-f]{3,6})\s*;/gi)].map(([, k, v]) => [
      k!,
      v!.length === 4 ? `#${[...v!.slice(1)].map((c) => c + c).join('')}` : v!,
    ]),
  );
}
const cssName = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const brandVars = (c: BrandColors) => Object.fromEntries(Object.entries(c).map(([k, v]) => [cssName(k), v]));

/** [foreground, background, what] pairs every screen uses. */
const pairs: [string, string, string][] = [
  ['text', 'bg', 'text on the page'],
  ['text', 'surface', 'text on a surface'],
  ['muted', 'surface', 'muted text on a surface'],
  ['muted', 'bg', 'muted text on the page'],
  ['on-primary', 'primary', 'a primary button'],
  ['on-primary', 'primary-hover', 'a hovered primary button'],
  ['primary', 'surface', 'a link on a surface'],
  ['primary', 'bg', 'a link on the page'],
  ['primary', 'primary-soft', 'the active menu item'],
  ['text', 'primary-soft', 'text on the soft tint'],
  ['danger', 'surface', 'an error on a surface'],
  ['danger', 'danger-soft', 'an error banner'],
  ['on-danger', 'danger', 'a danger button'],
  ['success', 'surface', 'success text'],
  ['success', 'success-soft', 'a success chip'],
  ['warn-text', 'warn-bg', 'a warning'],
  ['toast-text', 'toast-bg', 'the snackbar'],
  ['muted', 'chip-bg', 'a date chip'],
  ['muted', 'hover', 'muted text on a hovered row'],
  ['rail-text', 'rail', 'the rail'],
];

const web = readFileSync(path.join(import.meta.dirname, 'styles.css'), 'utf8');
const plans = readFileSync(path.join(import.meta.dirname, 'plans-page', 'plans-page.css'), 'utf8');

describe('theme colours (issue 22 §5)', () => {
  const light = variables(web, ':root');
  const dark = { ...light, ...variables(web, ":root[data-theme='dark']") };

  it.each(brandIds)('%s: every text pair is at least 4.5:1 in both themes', (id) => {
    const ratios: Record<string, number> = {};
    for (const [theme, neutrals, colors] of [
      ['light', light, brands[id].colors],
      ['dark', dark, brands[id].colorsDark],
    ] as const) {
      const v = { ...neutrals, ...brandVars(colors) };
      for (const [fg, bg, what] of pairs) {
        expect(v[fg], `${theme} --${fg}`).toMatch(/^#[0-9a-f]{6}$/i);
        expect(v[bg], `${theme} --${bg}`).toMatch(/^#[0-9a-f]{6}$/i);
        const r = contrastRatio(v[fg]!, v[bg]!);
        ratios[`${theme} ${what}`] = Math.round(r * 100) / 100;
        expect(r, `${id} ${theme}: ${what} (--${fg} on --${bg})`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('gives every brand a dark set with the same keys, in #rrggbb', () => {
    for (const id of brandIds) {
      expect(Object.keys(brands[id].colorsDark).sort()).toEqual(Object.keys(brands[id].colors).sort());
      for (const c of Object.values(brands[id].colorsDark)) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
    }
  });

  it("keeps the plans page's own pairs at 4.5:1 in both themes", () => {
    const pl = variables(plans, ':root');
    const pd = { ...pl, ...variables(plans, ":root[data-theme='dark']") };
    for (const id of brandIds)
      for (const [theme, v] of [
        ['light', { ...pl, ...brandVars(brands[id].colors) }],
        ['dark', { ...pd, ...brandVars(brands[id].colorsDark) }],
      ] as const)
        for (const [fg, bg] of [
          ['text', 'surface'],
          ['muted', 'surface'],
          ['primary', 'surface'],
          ['on-primary', 'primary'],
          ['danger', 'surface'],
          ['danger', 'danger-soft'],
          ['on-success-soft', 'success-soft'],
          ['chip-text', 'chip-bg'],
        ])
          expect(
            contrastRatio(v[fg!]!, v[bg!]!),
            `${id} ${theme} plans --${fg} on --${bg}`,
          ).toBeGreaterThanOrEqual(4.5);
  });
});
