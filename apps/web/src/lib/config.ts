import { BrandId, brandIds, brands, defaultBrandId, type Brand, type ClientConfig } from '@numa/contract';

/** What the server writes into index.html for this host (the contract's ClientConfig; apps/server/src/plugins/web.ts). */
export type { ClientConfig };

declare global {
  interface Window {
    __NUMA__?: ClientConfig;
  }
}

/** Without the server's config (Vite dev server), the brand follows the host's first label. */
function fromHost(): ClientConfig {
  const first = window.location.hostname.split('.')[0] ?? '';
  const brand = (brandIds as readonly string[]).includes(first) ? (first as BrandId) : defaultBrandId;
  return { brand, mobileSiteUrl: '', dev: import.meta.env.DEV };
}

const parsed = BrandId.safeParse(window.__NUMA__?.brand);
export const config: ClientConfig = parsed.success && window.__NUMA__ ? window.__NUMA__ : fromHost();
export const brand: Brand = brands[config.brand];
/** Our public page of an app and country (the applist front page's Next). */
export function codesPublicPage(app: string, country: string): string {
  const template = config.codesPublicPageUrl || '/receive/{app}/{country}';
  return template
    .replaceAll('{app}', encodeURIComponent(app))
    .replaceAll('{country}', encodeURIComponent(country));
}

/** The app and country of our public code page's path (`/receive/<app>/<country>`), or null. */
export function publicCodePath(pathname: string): { app: string; country: string } | null {
  const m = /^\/receive\/([A-Za-z0-9_.-]{1,64})\/([A-Za-z]{2})\/?$/.exec(pathname);
  return m ? { app: m[1]!, country: m[2]!.toUpperCase() } : null;
}

export const webVersion: string = typeof __WEB_VERSION__ === 'string' ? __WEB_VERSION__ : '0.0.0';
