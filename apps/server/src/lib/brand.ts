import { brandIds, brands, type Brand, type BrandId, type Lang } from '@numa/contract';

export interface BrandResolver {
  (host: string | undefined): Brand;
}

/**
 * The brand of a request's host: an exact entry of the configured table, else a first DNS label that
 * is a brand id (`wephone.localhost`, `jiema.example.com`), else the default brand.
 */
export function brandResolver(table: Record<string, BrandId>, fallback: BrandId): BrandResolver {
  const ids = new Set<string>(brandIds);
  return (host) => {
    const name = (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    const exact = table[name];
    if (exact) return brands[exact];
    const first = name.split('.')[0] ?? '';
    if (ids.has(first)) return brands[first as BrandId];
    return brands[fallback];
  };
}

/**
 * The language of what the server writes to an account with no language of its own at hand (mail,
 * a call's voice): the brand table's defaultLocale, else English — never derived from the brand's id.
 */
export const brandLang = (brand: BrandId): Lang => brands[brand].defaultLocale ?? 'en';
