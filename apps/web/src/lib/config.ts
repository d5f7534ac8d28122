import { BrandId, brandIds, brands, defaultBrandId, type Brand } from '@numa/contract';

/** What the server writes into index.html for this host (apps/server/src/plugins/web.ts). */
export interface ClientConfig {
  brand: BrandId;
  mobileSiteUrl: string;
  dev: boolean;
}

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
export const webVersion: string = typeof __WEB_VERSION__ === 'string' ? __WEB_VERSION__ : '0.0.0';
