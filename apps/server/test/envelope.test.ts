import { io as connectIo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketPath } from '@numa/contract';
import { signIn, testDbKind } from './helpers';
import { startChatApp, type ListeningApp } from './chat-support';

/**
 * Issue 9, hole 7: what used to fall outside the envelope (a 500 for a broken multipart body, the
 * router's own 414 and 400 bodies, a logout code for a bad handshake language) gets the right
 * retcode, a retmsg in the caller's language and a 4xx.
 */
let t: ListeningApp;
let token: string;
beforeAll(async () => {
  t = await startChatApp();
  token = (await signIn(t.app, { email: `envelope.${Date.now()}@example.com` })).token!;
});
afterAll(async () => {
  await t?.close();
});

const chinese = /[\u4e00-\u9fff]/;

function expectEnvelope(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  retcode: number,
  lang: 'en' | 'zh',
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as { retcode: number; retmsg: string; data: unknown };
  expect(Object.keys(body).sort()).toEqual(['data', 'retcode', 'retmsg']);
  expect(body.retcode).toBe(retcode);
  expect(body.retmsg.length).toBeGreaterThan(0);
  if (lang === 'zh') expect(body.retmsg).toMatch(chinese);
  else expect(body.retmsg).not.toMatch(chinese);
  expect(body.retmsg).not.toMatch(/FST_|ERR_|Error:|at .*\.js/);
  return body;
}

async function stillServes() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/web/getAccountInfo?languagecode=en',
    headers: { 'auth-token': token },
  });
  expect(res.statusCode).toBe(200);
}

describe(`the envelope where it was missing (${testDbKind})`, () => {
  const kyc = (body: string, contentType: string, lang = 'zh_cn') =>
    t.app.inject({
      method: 'POST',
      url: `/web/updateKYCInfo?languagecode=${lang}`,
      headers: { 'auth-token': token, 'content-type': contentType },
      payload: body,
    });

  it('a broken multipart body on updateKYCInfo is 100001 with a 400, in the caller’s language', async () => {
    const cases: [string, string, string][] = [
      [
        'no boundary in the content type',
        '--x\r\nContent-Disposition: form-data; name="platform"\r\n\r\nnuma\r\n--x--\r\n',
        'multipart/form-data',
      ],
      [
        'a body cut short',
        '--xyz\r\nContent-Disposition: form-data; name="platform"\r\n\r\nnuma',
        'multipart/form-data; boundary=xyz',
      ],
      ['no multipart at all', 'hello world', 'multipart/form-data; boundary=xyz'],
      [
        'a boundary over 70 characters',
        `--${'b'.repeat(100)}\r\n`,
        `multipart/form-data; boundary=${'b'.repeat(100)}`,
      ],
    ];
    for (const [name, body, type] of cases) {
      for (const lang of ['zh_cn', 'en'] as const) {
        const res = await kyc(body, type, lang);
        const env = expectEnvelope(res, 400, 100001, lang === 'zh_cn' ? 'zh' : 'en');
        expect(env.data, name).toBeNull();
      }
    }
    await stillServes();
  });

  it('an over-long media path is 100002 with a 404, not the router’s 414', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/media/${'a'.repeat(300)}?languagecode=zh_cn`,
      headers: { 'auth-token': token },
    });
    expectEnvelope(res, 404, 100002, 'zh');
    const en = await t.app.inject({
      method: 'GET',
      url: `/media/${'a'.repeat(300)}`,
      headers: { 'accept-language': 'en-US' },
    });
    expectEnvelope(en, 404, 100002, 'en');
    await stillServes();
  });

  it('a malformed percent-escape in the path is 100001 with a 400', async () => {
    for (const url of [
      '/web/getAccountInfo%E0%A4%A?languagecode=zh_cn',
      '/media/%E0%A4%A?languagecode=zh_cn',
    ]) {
      expectEnvelope(await t.app.inject({ method: 'GET', url }), 400, 100001, 'zh');
    }
    const byHeader = await t.app.inject({
      method: 'GET',
      url: '/web/%ZZ',
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
    });
    expectEnvelope(byHeader, 400, 100001, 'zh');
    await stillServes();
  });

  it('a malformed media cookie is no session (100012), not a 500', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/media/abcdefghijk?languagecode=en',
      headers: { cookie: 'numa_media=%E0%A4%A' },
    });
    expectEnvelope(res, 401, 100012, 'en');
  });

  it('a /web call with a languagecode outside the contract is 100001, answered in the Accept-Language language', async () => {
    for (const q of ['languagecode=xx', 'languagecode=zh-CN', 'languagecode=en&languagecode=zh_cn']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/web/getAccountInfo?${q}`,
        headers: { 'auth-token': token, 'accept-language': 'zh-CN' },
      });
      const body = expectEnvelope(res, 400, 100001, 'zh');
      expect(body.retmsg).toContain('languagecode');
    }
    await stillServes();
  });

  it('a bad languagecode at the socket handshake is 100001 in the user’s language, not a logout code', async () => {
    const refused = (query: Record<string, unknown>, headers: Record<string, string> = {}) =>
      new Promise<{ retcode: number; retmsg: string }>((resolve, reject) => {
        const s = connectIo(t.url, {
          path: socketPath,
          query,
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
          extraHeaders: headers,
        });
        s.once('connect', () => {
          s.close();
          reject(new Error('connected'));
        });
        s.once('connect_error', (err) => {
          s.close();
          resolve((err as Error & { data: { retcode: number; retmsg: string } }).data);
        });
      });
    const zh = await refused({ token, languagecode: 'klingon' }, { 'accept-language': 'zh-CN' });
    expect(zh.retcode).toBe(100001);
    expect(zh.retmsg).toMatch(chinese);
    expect(zh.retmsg).toContain('languagecode');
    const en = await refused({ token, languagecode: 'klingon' });
    expect(en.retcode).toBe(100001);
    expect(en.retmsg).not.toMatch(chinese);
    // a missing token stays a session matter
    expect((await refused({ languagecode: 'zh_cn' })).retcode).toBe(100012);
    await stillServes();
  });
});
