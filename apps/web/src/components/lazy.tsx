import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * `React.lazy` for a module's named export: `lazyNamed(() => import('./X'), 'X')`. The module becomes
 * a chunk of its own, fetched the first time the component renders (inside a `<Suspense>`). This is
 * the one way the web client splits its code (docs/architecture.md, "Code splitting").
 */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K] extends ComponentType<infer P> ? ComponentType<P> : never> {
  return lazy(async () => ({ default: (await load())[name] as never }));
}
