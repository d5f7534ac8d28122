import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Brand, ClientConfig } from '@numa/contract';
import { plansPagePath } from '@numa/contract/plansFrame';
import { ApiError } from '../lib/errors';
import { drawIcon, iconSizes, webManifest } from '../lib/webApp';
import { brandLang } from '../lib/brand';
import { fill, serverTexts } from '../lib/texts';

/** The config script of a page (the contract's ClientConfig as `window.__NUMA__`) and its CSP hash. */
export function configScript(config: ClientConfig): { script: string; hash: string } {
  const script = `window.__NUMA__=${JSON.stringify(config).replace(/</g, '\\u003c')};`;
  return { script, hash: createHash('sha256').update(script).digest('base64') };
}

/**
 * The CSP hashes of a built page's own inline scripts (`<script>` without attributes: index.html's
 * theme boot script, issue 22 §5), computed from the file the server sends, so an edit of the script
 * never leaves a stale hash behind.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
}

/** Paths of the server's own (never the client's routes): an unknown one gets the 404 envelope, never the page. */
const apiPrefixes = ['/web/', '/dev/', '/webchat', '/healthz', '/media/', '/metrics', '/pay/', '/carrier/'];

/** brotli when the client takes it, else gzip, else none (q=0 refuses an encoding). */
export function pickEncoding(accept: string | string[] | undefined): 'br' | 'gzip' | null {
  const offered = new Map<string, number>();
  for (const part of String(accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    if (name) offered.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (e: string) => (offered.get(e) ?? offered.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/** The page's meta description, in the brand's own language (issue 13 §3.18: search results). */
export function describe(brand: Brand): string {
  const lang = brandLang(brand.id);
  const text = fill(serverTexts[lang].web.pageDescription, { name: brand.name[lang] });
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Serves the built web client. index.html gets the brand's config inline (with its CSP hash) and is
 * the fallback for client routes; unknown API paths get the envelope, never HTML.
 */
export default async function webPlugin(app: FastifyInstance, opts: { dist: string }) {
  const indexPath = path.join(opts.dist, 'index.html');
  const hasClient = existsSync(indexPath);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.dist,
      wildcard: false,
      index: false,
      allowedPath: (p) => p !== '/index.html' && p !== `${plansPagePath}index.html`,
      // the build writes `.br` and `.gz` beside every text asset (apps/web/vite.config.ts): sent as
      // they are by Accept-Encoding, with `Vary: Accept-Encoding`
      preCompressed: true,
      // a route per file is made at start (wildcard: false): the compressed copies need none of their
      // own (preCompressed finds them beside the file), a third of the routes (issue 24 §5); nor do
      // the source maps, built `hidden` (apps/web/vite.config.ts: no script names them) for reading
      // stacks on the server's disk, not for serving (82 of the 197 files that had a route)
      globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
      setHeaders: (res, file) => {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : // the service worker: a new deployment's is seen at the next check, never an hour late
              path.basename(file) === 'sw.js'
              ? 'no-cache'
              : 'public, max-age=300',
        );
      },
    });
  }
  // hashed assets never change under their name: cached for a year and never revalidated, so they
  // go without ETag, Last-Modified and Accept-Ranges (about 100 bytes on each of the ~20 chunks a
  // signed-in screen loads, issue 13 §1)
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 200 && req.url.startsWith('/assets/')) {
      reply.removeHeader('etag');
      reply.removeHeader('last-modified');
      reply.removeHeader('accept-ranges');
    }
    return payload;
  });
  const template = hasClient ? readFileSync(indexPath, 'utf8') : null;
  const templateHashes = template ? inlineScriptHashes(template).join(' ') : '';
  const pages = new Map<string, { html: string; hash: string }>();
  const configOf = (brand: Brand): ClientConfig => ({
    brand: brand.id,
    mobileSiteUrl: app.deps.env.MOBILE_SITE_URL,
    codesPublicPageUrl: app.deps.env.CODES_PUBLIC_PAGE_URL,
    dev: app.deps.dev,
    // a demo deployment: every page shows the "no real money" banner (issue 18)
    ...(app.deps.env.DEMO_MODE ? { demo: true } : {}),
  });

  const page = (brand: Brand) => {
    const cached = pages.get(brand.id);
    if (cached) return cached;
    const { script, hash } = configScript(configOf(brand));
    const html = (template ?? '')
      .replace('<!--app-config-->', `<script>${script}</script>`)
      .replace(
        /<title>[^<]*<\/title>/,
        `<title>${brand.name.en}</title><meta name="description" content="${describe(brand)}">`,
      )
      .replace(
        /<meta name="theme-color" content="[^"]*"/,
        `<meta name="theme-color" content="${brand.colors.primary}"`,
      )
      // the brand's own manifest and home-screen icon (issue 23 §1), answered by this host below
      .replace(
        '</title>',
        '</title><link rel="manifest" href="/manifest.webmanifest"><link rel="apple-touch-icon" href="/app-icon-180.png">',
      );
    const built = { html, hash };
    pages.set(brand.id, built);
    return built;
  };

  /**
   * The page's CSP. `connect-src` is this origin and its own websocket (the chat host is the page's
   * host: the client opens /webchat on its own origin), never any ws:/wss: host; the websocket
   * origin is written out because older Safari does not count ws(s) as 'self'.
   */
  const cspFor = (req: FastifyRequest, hash: string) => {
    const host = req.host.replace(/[^A-Za-z0-9.:[\]-]/g, '');
    const ws = `${req.protocol === 'https' ? 'wss' : 'ws'}://${host}`;
    return [
      "default-src 'self'",
      `script-src 'self' 'sha256-${hash}' ${templateHashes}`.trimEnd(),
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      `connect-src 'self' ${ws}`,
      "worker-src 'self'",
      "frame-src 'self'",
      "frame-ancestors 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self' https:",
    ].join('; ');
  };

  const encodedPages = new Map<string, Buffer>();
  const sendIndex = (req: FastifyRequest, reply: FastifyReply) => {
    if (!template) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web client is not built. Run `npm run build`.');
    }
    const { html, hash } = page(req.ctx.brand);
    const csp = cspFor(req, hash);
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin');
    // compressed here, once per brand and encoding: @fastify/compress hooks routes only, and the
    // client routes (/login, /chats…) are answered from the not-found handler (it leaves an encoded
    // answer as it is)
    reply.header('vary', 'accept-encoding');
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.send(html);
    const key = `${req.ctx.brand.id}:${encoding}`;
    let body = encodedPages.get(key);
    if (!body) {
      body = encoding === 'br' ? brotliCompressSync(html) : gzipSync(html);
      encodedPages.set(key, body);
    }
    return reply.header('content-encoding', encoding).send(body);
  };

  app.get('/', sendIndex);

  /**
   * The installable app (issue 23 §1): the host's brand's manifest and icons, made once per brand
   * (lib/webApp.ts). Cached for five minutes like the other unhashed files.
   */
  const manifests = new Map<string, string>();
  app.get('/manifest.webmanifest', (req, reply) => {
    const brand = req.ctx.brand;
    let body = manifests.get(brand.id);
    if (!body) {
      body = JSON.stringify(webManifest(brand));
      manifests.set(brand.id, body);
    }
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('vary', 'host')
      .send(body);
  });
  const icons = new Map<string, Buffer>();
  const sendIcon = (req: FastifyRequest, reply: FastifyReply, size: number, maskable: boolean) => {
    const key = `${req.ctx.brand.id}:${size}:${maskable}`;
    let png = icons.get(key);
    if (!png) {
      png = drawIcon(req.ctx.brand, size, maskable);
      icons.set(key, png);
    }
    return reply
      .type('image/png')
      .header('cache-control', 'public, max-age=86400')
      .header('vary', 'host')
      .send(png);
  };
  for (const size of iconSizes)
    app.get(`/app-icon-${size}.png`, (req, reply) => sendIcon(req, reply, size, false));
  app.get('/app-icon-maskable-512.png', (req, reply) => sendIcon(req, reply, 512, true));

  /**
   * The embedded plans page (issue 11 item 7): its own small build (apps/web/plans/, written to
   * `dist/plans/`), loaded by the web client in a frame of this origin only. Its query holds the
   * access token, so no referrer ever leaves it and nothing caches it.
   */
  const plansIndex = path.join(opts.dist, 'plans', 'index.html');
  const plansHtml = existsSync(plansIndex) ? readFileSync(plansIndex, 'utf8') : null;
  const plansHashes = plansHtml ? inlineScriptHashes(plansHtml).join(' ') : '';
  const plansPages = new Map<string, { html: string; hash: string }>();
  /** The plans page with the host's config inline (it shows the demo banner when opened alone). */
  const plansPage = (brand: Brand) => {
    const cached = plansPages.get(brand.id);
    if (cached) return cached;
    const { script, hash } = configScript(configOf(brand));
    const built = {
      html: (plansHtml ?? '').replace('<!--app-config-->', `<script>${script}</script>`),
      hash,
    };
    plansPages.set(brand.id, built);
    return built;
  };
  const sendPlans = (req: FastifyRequest, reply: FastifyReply) => {
    if (!plansHtml)
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The plans page is not built. Run `npm run build`.');
    const { html, hash } = plansPage(req.ctx.brand);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        [
          "default-src 'self'",
          `script-src 'self' 'sha256-${hash}' ${plansHashes}`.trimEnd(),
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data:",
          "connect-src 'self'",
          "frame-ancestors 'self'",
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'none'",
        ].join('; '),
      )
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  };
  app.get(plansPagePath, sendPlans);

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = apiPrefixes.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));
    const wantsHtml =
      (req.method === 'GET' || req.method === 'HEAD') &&
      /text\/html|\*\/\*/.test(req.headers.accept ?? '*/*');
    if (isApi || !wantsHtml || path.extname(url)) throw new ApiError(100002);
    return sendIndex(req, reply);
  });
}
