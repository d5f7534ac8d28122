import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as endpoints from '@numa/contract/endpoints';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { ApiError, call } from './api';

function answer(body: unknown, status = 200) {
  return vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

describe('the API client', () => {
  beforeEach(() => {
    useSession.getState().signIn('tok', { canInvite: true, canSetInviter: false });
    useUi.setState({ alert: null, frontPage: false, captchaOpen: false });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('adds the common query, the token header and the platform', async () => {
    const fetch = answer({ retcode: 0, retmsg: '', data: {} });
    vi.stubGlobal('fetch', fetch);
    await call(endpoints.logout, {});
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/^\/web\/logout\?t=\d+&webVersion=[\d.]+&languagecode=(en|zh_cn)$/);
    expect((init.headers as Record<string, string>)['auth-token']).toBe('tok');
    expect(JSON.parse(String(init.body))).toEqual({ platform: 'numa' });
  });

  it('puts GET input in the query', async () => {
    const drawing = {
      captchaId: 'abcdefgh12',
      image: 'data:image/webp;base64,UklGRg==',
      width: 150,
      height: 50,
      pow: {
        parameters: {
          algorithm: 'SHA-256',
          nonce: 'ab',
          salt: 'cd',
          cost: 1,
          keyLength: 32,
          keyPrefix: '00',
        },
        signature: 'ef',
      },
    };
    const fetch = answer({ retcode: 0, retmsg: '', data: drawing });
    vi.stubGlobal('fetch', fetch);
    const r = await call(endpoints.genCaptcha, { captchaId: 'abcdefgh12' });
    expect(r.image).toBe(drawing.image);
    expect(String((fetch.mock.calls[0] as unknown as [string])[0])).toContain('captchaId=abcdefgh12');
  });

  it('logs out on 100012/100013/100014/200018 and alerts', async () => {
    for (const code of [100012, 100013, 100014, 200018]) {
      useSession.getState().signIn('tok', { canInvite: true, canSetInviter: true });
      vi.stubGlobal('fetch', answer({ retcode: code, retmsg: `msg ${code}`, data: null }, 401));
      await expect(call(endpoints.queryBalance, {})).rejects.toBeInstanceOf(ApiError);
      expect(useSession.getState().token).toBeNull();
      expect(useSession.getState().kicked).toBe(true);
      expect(useUi.getState().alert?.message).toBe(`msg ${code}`);
      useUi.setState({ alert: null });
    }
  });

  it('100008 only marks kicked', async () => {
    vi.stubGlobal('fetch', answer({ retcode: 100008, retmsg: 'suspended', data: null }, 401));
    await expect(call(endpoints.queryBalance, {})).rejects.toMatchObject({ retcode: 100008 });
    expect(useSession.getState().token).toBe('tok');
    expect(useSession.getState().kicked).toBe(true);
  });

  it('ignores the session codes on the front page', async () => {
    useUi.setState({ frontPage: true });
    vi.stubGlobal('fetch', answer({ retcode: 100012, retmsg: 'invalid', data: null }, 401));
    await expect(call(endpoints.getAppList, {})).rejects.toMatchObject({ retcode: 100012 });
    expect(useSession.getState().token).toBe('tok');
    expect(useUi.getState().alert).toBeNull();
  });

  it('alerts other failures unless silent or a captcha modal is open', async () => {
    vi.stubGlobal('fetch', answer({ retcode: 100001, retmsg: 'bad', data: null }, 400));
    await expect(call(endpoints.queryBalance, {})).rejects.toMatchObject({ retcode: 100001 });
    expect(useUi.getState().alert?.message).toBe('bad');
    useUi.setState({ alert: null, captchaOpen: true });
    await expect(call(endpoints.queryBalance, {})).rejects.toMatchObject({ retcode: 100001 });
    expect(useUi.getState().alert).toBeNull();
    useUi.setState({ captchaOpen: false });
    vi.stubGlobal('fetch', answer({ retcode: 400001, retmsg: 'no credit', data: null }, 400));
    await expect(call(endpoints.queryBalance, {})).rejects.toMatchObject({ retcode: 400001 });
    expect(useUi.getState().alert).toBeNull(); // silent code: the caller shows it
  });

  it('refuses an answer that breaks the contract', async () => {
    vi.stubGlobal('fetch', answer({ retcode: 0, retmsg: '', data: { balance: 'lots' } }));
    await expect(call(endpoints.queryBalance, {})).rejects.toMatchObject({ retcode: 100000 });
  });

  it('turns a network failure into a retcode of -1 with a message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(call(endpoints.queryBalance, {})).rejects.toMatchObject({ retcode: -1 });
    expect(useUi.getState().alert?.message).toMatch(/connection/i);
  });
});
