import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadRestTexts } from '../lib/i18n';

/**
 * A lazily loaded module, with the rest of the texts (lib/i18n.ts) when it is not one of the first
 * screens' own parts (`entry`): those show only texts of the entry part, every other screen, panel
 * and dialog waits for the rest, fetched beside its chunk, so that it never shows a text's key.
 */
function withTexts<M>(loading: Promise<M>, entry: boolean): Promise<M> {
  return entry ? loading : Promise.all([loading, loadRestTexts()]).then(([m]) => m);
}

/**
 * `React.lazy` for a module's named export: `lazyNamed(() => import('./X'), 'X')`. The module becomes
 * a chunk of its own, fetched the first time the component renders (inside a `<Suspense>`). This is
 * the one way the web client splits its code (docs/architecture.md, "Code splitting").
 * `{ entry: true }`: a part of the first screens (the shell), which needs no more texts.
 */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  { entry = false }: { entry?: boolean } = {},
): LazyExoticComponent<M[K] extends ComponentType<infer P> ? ComponentType<P> : never> {
  return lazy(async () => ({ default: (await withTexts(load(), entry))[name] as never }));
}

/** `React.lazy` for a module's default export (a screen, a panel), with the rest of the texts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function lazyScreen<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() => withTexts(load(), false));
}
