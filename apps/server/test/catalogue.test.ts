import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@numa/contract';
import { client, signIn, startTestApp, testDbKind, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe(`getAppList (${testDbKind})`, () => {
  it('answers anonymous visitors and signed-in users, in their language', async () => {
    const anon = client(t.app, 'jiema.localhost');
    const en = await anon.get('/web/getAppList');
    expect(en.status).toBe(200);
    expect(endpoints.getAppList.output.parse(en.body.data).appList.length).toBeGreaterThan(20);
    expect(en.body.data.countrys).toContainEqual({ code: 'US', name: 'United States', telCode: '1', show: true });
    const zh = await anon.get('/web/getAppList', { languagecode: 'zh_cn' });
    expect(zh.body.data.appList.find((a: { app: string }) => a.app === 'wechat').name).toBe('微信');
    expect(zh.body.data.countrys.find((c: { code: string }) => c.code === 'GB').name).toBe('英国');

    const signed = await signIn(t.app, { email: `apps.${Date.now()}@example.com` }, 'jiema.localhost');
    expect((await signed.get('/web/getAppList')).body.retcode).toBe(0);
    // a bad token on an optional call is treated as anonymous, not refused
    signed.setToken('garbage');
    expect((await signed.get('/web/getAppList')).body.retcode).toBe(0);
  });

  it('refuses parameters it does not take', async () => {
    const r = await client(t.app).get('/web/getAppList', { app: 'x' });
    expect(r.body.retcode).toBe(100001);
  });
});
