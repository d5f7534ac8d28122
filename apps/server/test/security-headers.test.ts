import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { io as connectIo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketPath } from '@numa/contract';
import { signIn, testDbKind } from './helpers';
import { startChatApp, type ListeningApp } from './chat-support';
import { inlineScriptHashes } from '../src/plugins/web';

/** The web client's own index.html and the plans page's: each has the theme boot script inline. */
const webHtml = (file: string) => readFileSync(new URL(`../../web/${file}`, import.meta.url), 'utf8');
const bootScript = /<script>([\s\S]*?)<\/script>/.exec(webHtml('index.html'))![1]!;

/** Issue 9, hole 9: nosniff everywhere, HSTS over TLS only, a narrow connect-src, the socket's Origin. */
const dist = mkdtempSync(path.join(os.tmpdir(), 'numa-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html><html><head><title>x</title><script>${bootScript}</script><!--app-config--></head><body></body></html>`,
);
writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
// its hidden source map (the build names it in no script): kept on disk, never served
writeFileSync(path.join(dist, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
// the build's compressed copies beside an asset (apps/web/vite.config.ts)
const bigAsset = `console.log(${JSON.stringify('numa '.repeat(2000))})`;
writeFileSync(path.join(dist, 'assets', 'big-abc123.js'), bigAsset);
writeFileSync(path.join(dist, 'assets', 'big-abc123.js.br'), brotliCompressSync(bigAsset));
writeFileSync(path.join(dist, 'assets', 'big-abc123.js.gz'), gzipSync(bigAsset));

let t: ListeningApp;
let proxied: ListeningApp;
let token: string;
let wephoneToken: string;
beforeAll(async () => {
  t = await startChatApp({
    envOverrides: {
      WEB_DIST: dist,
      BRAND_HOSTS: 'app.wephone.example=wephone,app.numa.example=numa',
      ALLOWED_ORIGINS: 'https://partner.example.org',
    },
  });
  proxied = await startChatApp({ envOverrides: { WEB_DIST: dist, TRUST_PROXY: 'true' } });
  token = (await signIn(t.app, { email: `headers.${Date.now()}@example.com` })).token!;
  wephoneToken = (await signIn(t.app, { email: `headers.w.${Date.now()}@example.com` }, 'wephone.localhost'))
    .token!;
});
afterAll(async () => {
  await t?.close();
  await proxied?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe(`security headers (${testDbKind})`, () => {
  it('sends X-Content-Type-Options: nosniff on API answers, errors, assets, the page and router errors', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/web/getAccountInfo', headers: { 'auth-token': token } }),
      t.app.inject({ url: '/web/getAccountInfo' }),
      t.app.inject({ url: '/web/nothing-here' }),
      t.app.inject({ url: '/web/x%E0%A4%A' }),
      t.app.inject({ url: `/media/${'a'.repeat(300)}` }),
      t.app.inject({ url: '/healthz' }),
      t.app.inject({ url: '/assets/app-abc123.js' }),
      t.app.inject({ url: '/', headers: { accept: 'text/html' } }),
      t.app.inject({ url: '/chats', headers: { accept: 'text/html' } }),
    ]);
    for (const res of answers) expect(res.headers['x-content-type-options'], res.raw.req.url).toBe('nosniff');
    expect(answers[0]!.statusCode).toBe(200);
    expect(answers[6]!.statusCode).toBe(200);
  });

  it('serves the built files but not their source maps', async () => {
    const [script, map] = await Promise.all([
      t.app.inject({ url: '/assets/app-abc123.js' }),
      t.app.inject({ url: '/assets/app-abc123.js.map' }),
    ]);
    expect(script.statusCode).toBe(200);
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  });

  it('sends HSTS only when the request came over TLS through a trusted proxy', async () => {
    const tls = await proxied.app.inject({
      url: '/web/getAccountInfo',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000');
    const asset = await proxied.app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(asset.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(
      (await proxied.app.inject({ url: '/web/getAccountInfo' })).headers['strict-transport-security'],
    ).toBeUndefined();
    // without TRUST_PROXY the header is anyone's to send: ignored
    const spoofed = await t.app.inject({
      url: '/web/getAccountInfo',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it("limits the page's connect-src to its own origin and websocket", async () => {
    const csp = (res: { headers: Record<string, unknown> }) =>
      Object.fromEntries(
        String(res.headers['content-security-policy'])
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      ) as Record<string, string[]>;
    const plain = csp(
      await t.app.inject({ url: '/', headers: { accept: 'text/html', host: 'wephone.localhost:8080' } }),
    );
    expect(plain['connect-src']).toEqual(["'self'", 'ws://wephone.localhost:8080']);
    const tls = csp(
      await proxied.app.inject({
        url: '/',
        headers: {
          accept: 'text/html',
          host: 'internal:8080',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'chat.numa.app',
        },
      }),
    );
    expect(tls['connect-src']).toEqual(["'self'", 'wss://chat.numa.app']);
    for (const values of [plain['connect-src']!, tls['connect-src']!]) {
      expect(values).not.toContain('ws:');
      expect(values).not.toContain('wss:');
      expect(values).not.toContain('*');
    }
  });

  it("allows the page's inline scripts (the theme boot script, the config) by their hashes, never 'unsafe-inline' (issue 22 §5)", async () => {
    const res = await t.app.inject({ url: '/chats', headers: { accept: 'text/html' } });
    const scriptSrc = /script-src ([^;]*)/
      .exec(String(res.headers['content-security-policy']))![1]!
      .split(' ');
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const scripts = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toBe(bootScript);
    for (const s of scripts)
      expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(s).digest('base64')}'`);
  });
});

describe(`the socket checks the page's Origin (${testDbKind})`, () => {
  const open = (tok: string, headers: Record<string, string>) =>
    new Promise<{ ok: true } | { ok: false; retcode: number; retmsg: string }>((resolve) => {
      const s = connectIo(t.url, {
        path: socketPath,
        query: { token: tok },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        extraHeaders: headers,
      });
      s.once('connect', () => {
        s.close();
        resolve({ ok: true });
      });
      s.once('connect_error', (err) => {
        s.close();
        resolve({ ok: false, ...(err as Error & { data: { retcode: number; retmsg: string } }).data });
      });
    });
  const port = () => new URL(t.url).port;

  it('lets in its own host, the brand’s configured hosts, listed origins and non-browser clients', async () => {
    expect(await open(token, {})).toEqual({ ok: true });
    expect(await open(token, { host: `localhost:${port()}`, origin: `http://localhost:${port()}` })).toEqual({
      ok: true,
    });
    expect(await open(token, { host: `localhost:${port()}`, origin: 'https://app.numa.example' })).toEqual({
      ok: true,
    });
    expect(await open(token, { host: `localhost:${port()}`, origin: 'https://partner.example.org' })).toEqual(
      { ok: true },
    );
    expect(
      await open(wephoneToken, {
        host: `wephone.localhost:${port()}`,
        origin: 'https://app.wephone.example',
      }),
    ).toEqual({ ok: true });
  });

  it('refuses any other origin with 100003, before looking at the token', async () => {
    const cases: Record<string, string>[] = [
      { host: `localhost:${port()}`, origin: 'https://evil.example' },
      { host: `localhost:${port()}`, origin: `http://localhost:${Number(port()) + 1}` },
      // another brand's configured host
      { host: `localhost:${port()}`, origin: 'https://app.wephone.example' },
      { host: `localhost:${port()}`, origin: 'null' },
      { host: `localhost:${port()}`, origin: 'file://' },
    ];
    for (const headers of cases) {
      const res = await open(token, headers);
      expect(res, headers.origin).toMatchObject({ ok: false, retcode: 100003 });
    }
    // refused for the origin even with a dead token: no session lookup for a foreign page
    expect(
      await open('not-a-token', {
        host: `localhost:${port()}`,
        origin: 'https://evil.example',
        'accept-language': 'zh-CN',
      }),
    ).toMatchObject({
      ok: false,
      retcode: 100003,
      retmsg: expect.stringMatching(/[\u4e00-\u9fff]/),
    });
  });

  it('sends assets as the build compressed them and JSON above 1 KiB compressed, by Accept-Encoding (issue 13 §1)', async () => {
    const asset = (encoding?: string) =>
      t.app.inject({
        url: '/assets/big-abc123.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const br = await asset('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigAsset);
    expect(br.rawPayload.length).toBeLessThan(bigAsset.length / 10);
    expect((await asset('gzip')).headers['content-encoding']).toBe('gzip');
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bigAsset);

    // a JSON answer above 1 KiB (the app list), compressed per request; a small one is not
    const big = await t.app.inject({ url: '/web/getAppList', headers: { 'accept-encoding': 'br' } });
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).retcode).toBe(0);
    // each brand's page describes itself, in its language (issue 13 §3.18)
    const numaPage = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(numaPage.body).toMatch(
      /<meta name="description" content="Numa: virtual phone numbers on the web\./,
    );
    const jiemaPage = await t.app.inject({
      url: '/',
      headers: { accept: 'text/html', host: 'jiema.localhost' },
    });
    expect(jiemaPage.body).toMatch(/<meta name="description" content="[^"]*验证码/);
    // the page on a client route (the not-found handler answers it) is compressed too, per brand
    const chats = await t.app.inject({
      url: '/chats',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(chats.headers['content-encoding']).toBe('br');
    expect(chats.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(chats.rawPayload).toString()).toBe(numaPage.body);
    const gz = await t.app.inject({
      url: '/login',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
    });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(numaPage.body);
    const small = await t.app.inject({ url: '/web/getAccountInfo', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().retcode).not.toBe(0);
  });
});

describe('the inline scripts of the built pages', () => {
  it('hashes each inline script of index.html and plans/index.html as the browser does', () => {
    for (const file of ['index.html', 'plans/index.html']) {
      const html = webHtml(file);
      const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts, file).toHaveLength(1);
      expect(scripts[0], file).toContain('numa.theme');
      expect(inlineScriptHashes(html)).toEqual([
        `'sha256-${createHash('sha256').update(scripts[0]!, 'utf8').digest('base64')}'`,
      ]);
    }
  });
});
