import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadEnv } from '../src/env';
import { isLoopbackAddress, isLoopbackHost } from '../src/lib/net';
import { newCaptchaId, openTestDb, startTestApp, testDbKind, testEnv, type TestApp } from './helpers';

/** Issue 9, hole 6: the /dev routes answer the loopback interface only, whatever the headers say. */
describe(`dev routes are loopback-only (${testDbKind})`, () => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    proxied = await startTestApp({ envOverrides: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  const devCalls = () => {
    const captchaId = newCaptchaId();
    return [
      { method: 'GET' as const, url: '/dev/outbox?to=someone@example.com' },
      { method: 'GET' as const, url: `/dev/captcha?captchaId=${captchaId}` },
      { method: 'DELETE' as const, url: '/dev/rate-limits?to=someone@example.com' },
      {
        method: 'POST' as const,
        url: '/dev/inbound',
        payload: { from: '+12125550100', to: '+14155550100', text: 'hi' },
      },
    ];
  };

  it('answers requests from 127.0.0.0/8 and ::1', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/dev/outbox?to=someone@example.com',
        remoteAddress,
      });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.json()).toEqual({ messages: [] });
    }
  });

  it('refuses every /dev route from another address with the 404 envelope', async () => {
    for (const remoteAddress of ['10.1.2.3', '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::1']) {
      for (const call of devCalls()) {
        const res = await t.app.inject({ ...call, remoteAddress, query: { languagecode: 'zh_cn' } });
        expect(res.statusCode, `${call.method} ${call.url} from ${remoteAddress}`).toBe(404);
        expect(res.json()).toMatchObject({ retcode: 100002, data: null });
        expect(res.json().retmsg).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });

  it('never believes X-Forwarded-For, not even with TRUST_PROXY', async () => {
    for (const app of [t.app, proxied.app]) {
      for (const call of devCalls()) {
        const res = await app.inject({
          ...call,
          remoteAddress: '203.0.113.7',
          headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1', forwarded: 'for=127.0.0.1' },
        });
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      }
    }
    // a proxy on this machine is a loopback peer, but what it forwards comes from elsewhere: refused
    const viaLocalProxy = await proxied.app.inject({
      method: 'GET',
      url: '/dev/outbox?to=someone@example.com',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(viaLocalProxy.statusCode).toBe(404);
  });

  it('tells loopback addresses and hosts apart', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.2')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('127.evil.example')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.5', 'example.com']) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('a non-production start on a network address says so in the log', () => {
  let db: Awaited<ReturnType<typeof openTestDb>>;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(async () => {
    await db?.drop();
  });
  const start = async (env: Record<string, string>) => {
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = await buildApp({
      env: testEnv({ LOG_LEVEL: 'info', ...env }),
      db,
      logger: { level: 'info', stream },
    });
    await app.close();
    return lines.filter((l) => l.level >= 40 && /DEVELOPMENT MODE ON A NETWORK ADDRESS/.test(l.msg));
  };

  it('warns for a network address, not for loopback (the default) or production', async () => {
    expect(await start({ HOST: '192.168.1.5' })).toHaveLength(1);
    expect(await start({})).toHaveLength(0);
    expect(await start({ HOST: '0.0.0.0', NODE_ENV: 'production' })).toHaveLength(0);
  });

  it('listens on loopback by default unless in production', () => {
    expect(loadEnv({ NODE_ENV: 'development' }).HOST).toBe('127.0.0.1');
    expect(loadEnv({}).HOST).toBe('127.0.0.1');
    expect(loadEnv({ NODE_ENV: 'production' }).HOST).toBe('0.0.0.0');
    expect(loadEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});
