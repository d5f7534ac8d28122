import type { BrandId } from '@numa/contract';
import type { BrandResolver } from './brand';

const first = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim().toLowerCase();

/**
 * Whether a browser page of `origin` may open the chat socket of a brand (issue 9, hole 9). Allowed:
 * - no Origin at all (not a browser: scripts, apps; browsers send it on every websocket and
 *   cross-origin request, so its absence lets no other site in);
 * - the origin's host is the host the socket connects to (the page and its socket on one host; with
 *   TRUST_PROXY, also the proxy's X-Forwarded-Host);
 * - the origin's host is a BRAND_HOSTS host of the same brand;
 * - the origin is listed in ALLOWED_ORIGINS.
 */
export function originChecker(opts: {
  brandHosts: Record<string, BrandId>;
  allowedOrigins: string[];
  trustProxy: boolean;
  brandOf: BrandResolver;
}) {
  const listed = new Set(opts.allowedOrigins);
  return (p: {
    origin: string | undefined;
    host: string | undefined;
    forwardedHost: string | string[] | undefined;
    brand: BrandId;
  }): boolean => {
    if (p.origin === undefined || p.origin === '') return true;
    let url: URL;
    try {
      url = new URL(p.origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (listed.has(url.origin)) return true;
    const originHost = url.host.toLowerCase();
    const hosts = [p.host?.toLowerCase(), opts.trustProxy ? first(p.forwardedHost) : undefined].filter(
      Boolean,
    );
    if (hosts.includes(originHost)) return true;
    const table = opts.brandHosts[url.hostname.toLowerCase()];
    return table !== undefined && opts.brandOf(url.hostname).id === p.brand && table === p.brand;
  };
}
