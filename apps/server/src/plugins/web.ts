import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Brand } from '@numa/contract';
import { plansPagePath } from '@numa/contract/plansFrame';
import { ApiError } from '../lib/errors';

/** What the client learns from the server at load: its brand (from the host table) and settings. */
export interface ClientConfig {
  brand: Brand['id'];
  mobileSiteUrl: string;
  /** The applist front page's Next: our public page of an app and country (`{app}`, `{country}` filled in). */
  codesPublicPageUrl: string;
  dev: boolean;
}

const apiPrefixes = ['/web/', '/dev/', '/webchat', '/healthz', '/media/'];

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
  const text =
    brand.defaultLocale === 'zh'
      ? `${brand.name.zh}：在网页上使用虚拟手机号码，实时收发短信和图片，接收验证码。`
      : `${brand.name.en}: virtual phone numbers on the web. Text and send pictures in real time, keep your contacts in the cloud and receive verification codes.`;
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
      setHeaders: (res, file) => {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
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
  const pages = new Map<string, { html: string; hash: string }>();

  const page = (brand: Brand) => {
    const cached = pages.get(brand.id);
    if (cached) return cached;
    const config: ClientConfig = {
      brand: brand.id,
      mobileSiteUrl: app.deps.env.MOBILE_SITE_URL,
      codesPublicPageUrl: app.deps.env.CODES_PUBLIC_PAGE_URL,
      dev: app.deps.dev,
    };
    const script = `window.__NUMA__=${JSON.stringify(config).replace(/</g, '\\u003c')};`;
    const hash = createHash('sha256').update(script).digest('base64');
    const html = (template ?? '')
      .replace('<!--app-config-->', `<script>${script}</script>`)
      .replace(
        /<title>[^<]*<\/title>/,
        `<title>${brand.name.en}</title><meta name="description" content="${describe(brand)}">`,
      )
      .replace(
        /<meta name="theme-color" content="[^"]*"/,
        `<meta name="theme-color" content="${brand.colors.primary}"`,
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
      `script-src 'self' 'sha256-${hash}'`,
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
   * The embedded plans page (issue 11 item 7): its own small build (apps/web/plans/, written to
   * `dist/plans/`), loaded by the web client in a frame of this origin only. Its query holds the
   * access token, so no referrer ever leaves it and nothing caches it.
   */
  const plansIndex = path.join(opts.dist, 'plans', 'index.html');
  const plansHtml = existsSync(plansIndex) ? readFileSync(plansIndex, 'utf8') : null;
  const sendPlans = (_req: FastifyRequest, reply: FastifyReply) => {
    if (!plansHtml)
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The plans page is not built. Run `npm run build`.');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        [
          "default-src 'self'",
          "script-src 'self'",
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
      .send(plansHtml);
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
