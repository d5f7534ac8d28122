import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The two parts of each locale file (docs/decisions.md "Texts in two parts"): the groups below
 * (top-level keys, or dotted sub-groups), which the login screen, the signed-in shell and the chats
 * screen show, are the entry part; the rest is fetched when another screen, panel or dialog first
 * opens (lib/i18n.ts `loadRestTexts`, components/lazy.tsx).
 */
export const entryTexts = [
  'app',
  'apps',
  'chats',
  'demo',
  'dialogs',
  'errors',
  'front',
  'login',
  'mobile',
  'numbers.renewalFailed',
  'pwa',
  'rail',
  'tabs',
];

export type Texts = Record<string, unknown>;
export function pickTexts(all: Texts, paths: string[]): Texts {
  const out: Texts = {};
  for (const p of paths) {
    const keys = p.split('.');
    let from: unknown = all;
    for (const k of keys) from = (from as Texts | undefined)?.[k];
    if (from === undefined) continue;
    let to = out;
    for (const k of keys.slice(0, -1)) to = (to[k] ??= {}) as Texts;
    to[keys.at(-1)!] = from;
  }
  return out;
}
export function omitTexts(all: Texts, paths: string[]): Texts {
  const out = structuredClone(all);
  for (const p of paths) {
    const keys = p.split('.');
    let at: Texts | undefined = out;
    for (const k of keys.slice(0, -1)) at = at?.[k] as Texts | undefined;
    if (at) delete at[keys.at(-1)!];
  }
  return out;
}

/**
 * `locales/<lang>.json?texts=entry` is the entry part, `?texts=rest` everything else, and
 * `?texts=<key>` on any locale file (the contract's too) that one top-level key as a module of its
 * own, so that a dynamic import of it does not pull the whole file into the entry. `whole` (the web
 * unit tests, which render screens without loading them lazily): every part is the whole file.
 */
export function splitTexts({ whole = false }: { whole?: boolean } = {}): Plugin {
  const query = /[\\/]locales[\\/](en|zh)\.json\?(?:import&)?texts=([\w.]+)$/;
  return {
    name: 'numa-split-texts',
    enforce: 'pre',
    load(id) {
      const m = query.exec(id);
      if (!m) return null;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Texts;
      // the embedded plans page's own texts stay in its own build (vite.config.ts withoutPlansPageTexts)
      const plans = all.plans as Texts | undefined;
      if (plans?.page && !whole) delete plans.page;
      const part = m[2]!;
      const texts = whole
        ? all
        : part === 'entry'
          ? pickTexts(all, entryTexts)
          : part === 'rest'
            ? omitTexts(all, entryTexts)
            : pickTexts(all, [part]);
      // a module of code: Vite and the bundler read `.json?…` as JavaScript
      return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(texts))});`, map: null };
    },
  };
}
