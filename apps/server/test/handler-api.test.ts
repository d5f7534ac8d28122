import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants } from '@numa/contract';
import { ManualClock } from '../src/lib/clock';
import { makeUser, startChatApp, type ListeningApp } from './chat-support';

/**
 * The SMS-Activate protocol at /stubs/handler_api.php (issue 21), driven by an SMS-Activate client
 * library from npm (`sms-activate`, unchanged; only its base URL points here): a whole activation
 * (number, the simulated app's code, status OK, finish), a cancel (early, then allowed) and a lock
 * that gets no code; charged once per received code, never without one; the ledger invariant after.
 */
const require = createRequire(import.meta.url);

const SMSActivate = require('sms-activate') as new (key: string) => SmsActivateClient;
interface SmsActivateClient {
  session: { defaults: { baseURL: string } };
  getBalance(): Promise<number | null>;
  getNumber(service: string, country?: number): Promise<{ id: number; number: number } | null>;
  setStatus(id: number, status: number): Promise<string>;
  getCode(id: number): Promise<string | null>;
  getStatus(id: number): Promise<string>;
}

const clock = new ManualClock();
let t: ListeningApp;
type User = Awaited<ReturnType<typeof makeUser>>;
let u: User;
let key: string;

beforeAll(async () => {
  // the simulated apps send their code 10 minutes after a lock (within its 15), so a cancel comes first
  t = await startChatApp({
    clock,
    envOverrides: { CODE_SIM_SEND_AFTER_MS: '600000', CODE_SIM_FAIL_RATE: '0' },
  });
  u = await makeUser(t, { number: '+14155550701', balance: 3 });
  key = (await u.c.post('/web/createApiKey', { name: 'bot', scopes: ['codes'] })).body.data.secret;
});
afterAll(async () => {
  await t?.close();
});

const client = (k: string) => {
  const c = new SMSActivate(k);
  c.session.defaults.baseURL = `${t.url}/stubs/handler_api.php`;
  return c;
};
const raw = async (params: Record<string, string>) => {
  const res = await fetch(
    `${t.url}/stubs/handler_api.php?${new URLSearchParams({ api_key: key, ...params })}`,
  );
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
};

async function ledger() {
  const [row] = await t.db.query<{ balance: number; bills: number; codes: number }>(
    `SELECT a.balance::float8 AS balance, COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = a.id), 0)::float8 AS bills,
            (SELECT count(*) FROM ledger WHERE account_id = a.id AND type = ${constants.billTypes.codeReceive})::int AS codes
       FROM accounts a WHERE a.id = $1`,
    [u.accountId],
  );
  expect(row!.bills).toBe(row!.balance); // the ledger invariant: sum of bills = balance
  return row!;
}

describe('an SMS-Activate client from npm', () => {
  it('getBalance, getNumber, setStatus 1, getStatus (waiting, then the code), setStatus 6: one code, charged once', async () => {
    const sa = client(key);
    expect(await sa.getBalance()).toBe(3);
    const before = await ledger();
    const got = await sa.getNumber('tg', 187);
    expect(got).not.toBeNull();
    expect(Number.isInteger(got!.id)).toBe(true);
    expect(String(got!.number)).toMatch(/^1\d{10}$/); // with its country code
    expect(await sa.setStatus(got!.id, 1)).toBe('ACCESS_READY');
    expect(await sa.getStatus(got!.id)).toBe('STATUS_WAIT_CODE');
    expect(await sa.getCode(got!.id)).toBeNull();
    // the simulated app sends its code (the inbound path of the simulator), 10 minutes on
    clock.advance(600_000);
    await t.app.deps.jobs.drain();
    const code = await sa.getCode(got!.id);
    expect(code).toMatch(/^\d{4,8}$/);
    expect(await sa.getStatus(got!.id)).toBe('STATUS_OK');
    // asked again, the same code, charged once
    expect(await sa.getCode(got!.id)).toBe(code);
    expect(await sa.setStatus(got!.id, 6)).toBe('ACCESS_ACTIVATION');
    const after = await ledger();
    expect(after.codes).toBe(before.codes + 1);
    expect(after.balance).toBeLessThan(before.balance);
    // finished: its code stays, and it cannot be cancelled (a paid code is not taken back)
    expect(await sa.getCode(got!.id)).toBe(code);
    await expect(sa.setStatus(got!.id, 8)).rejects.toMatchObject({ name: 'BadStatus' });
  });

  it('a cancel within two minutes is denied, then goes; nothing is charged', async () => {
    const sa = client(key);
    const before = await ledger();
    const got = await sa.getNumber('wa', 187);
    expect(await sa.setStatus(got!.id, 8)).toBe('EARLY_CANCEL_DENIED');
    clock.advance(120_000);
    expect(await sa.setStatus(got!.id, 8)).toBe('ACCESS_CANCEL');
    expect(await sa.getStatus(got!.id)).toBe('STATUS_CANCEL');
    // the app's code after the cancel finds no lock: nothing stored, nothing charged
    clock.advance(600_000);
    await t.app.deps.jobs.drain();
    expect(await sa.getStatus(got!.id)).toBe('STATUS_CANCEL');
    expect(await ledger()).toEqual(before);
  });

  it('a lock whose window ends without a code is cancelled and costs nothing', async () => {
    const sa = client(key);
    const before = await ledger();
    const fresh = await sa.getNumber('fb', 187);
    clock.advance(constants.codes.lockMs + 1000);
    await t.app.deps.jobs.drain();
    expect(await sa.getStatus(fresh!.id)).toBe('STATUS_CANCEL');
    await expect(sa.setStatus(fresh!.id, 1)).rejects.toMatchObject({ name: 'BadStatus' });
    expect(await ledger()).toEqual(before);
  });

  it('answers the documented errors', async () => {
    await expect(client('numa_sk_' + 'x'.repeat(43)).getBalance()).rejects.toMatchObject({
      name: 'InvalidAPIKey',
    });
    const readOnly = (await u.c.post('/web/createApiKey', { name: 'no codes', scopes: ['messages:read'] }))
      .body.data.secret;
    await expect(client(readOnly).getBalance()).rejects.toMatchObject({ name: 'InvalidAPIKey' });
    await expect(client(key).getNumber('nope', 187)).rejects.toMatchObject({ name: 'BadService' });
    expect(
      (await raw({ action: 'getNumber', service: 'tg', country: '187', maxPrice: '0.0001' })).text,
    ).toMatch(/^WRONG_MAX_PRICE:\d/);
    expect((await raw({ action: 'nothing' })).text).toBe('BAD_ACTION');
    expect((await raw({ action: 'getStatus', id: '999999999' })).text).toBe('NO_ACTIVATION');
    expect((await raw({ action: 'getNumber', service: 'tg', country: '0' })).text).toBe('BAD_COUNTRY');
    // another account's activation is none of this key's business
    const other = await makeUser(t, { number: '+14155550702' });
    const otherKey = (await other.c.post('/web/createApiKey', { name: 'x', scopes: ['codes'] })).body.data
      .secret;
    const mine = await client(key).getNumber('ig', 187);
    await expect(client(otherKey).getStatus(mine!.id)).rejects.toMatchObject({ name: 'InvalidActivation' });
    // no money: NO_BALANCE
    await expect(client(otherKey).getNumber('tg', 187)).rejects.toMatchObject({ name: 'NoBalance' });
    // the live-lock cap: NO_NUMBERS
    const sa = client(key);
    for (let i = 0; i < constants.codes.maxLiveLocks; i++)
      await sa.getNumber(['tw', 'ds', 'mm', 'am'][i]!, 187).catch(() => null);
    await expect(sa.getNumber('vi', 187)).rejects.toMatchObject({ name: 'NoFreeNumbers' });
    await ledger();
  });

  it('answers getNumberV2, getPrices, getCountries and getServicesList as JSON, over GET and POST', async () => {
    clock.advance(constants.codes.lockMs + 1000);
    await t.app.deps.jobs.drain();
    const v2 = await raw({ action: 'getNumberV2', service: 'tg', country: '187' });
    const j = JSON.parse(v2.text);
    expect(j).toMatchObject({
      activationId: expect.any(Number),
      phoneNumber: expect.stringMatching(/^1\d{10}$/),
      countryCode: '187',
      canGetAnotherSms: true,
    });
    expect(v2.headers.get('ratelimit')).toMatch(/^"key";r=\d+;t=\d+$/);
    const prices = JSON.parse((await raw({ action: 'getPrices', service: 'tg', country: '187' })).text);
    expect(prices['187'].tg).toMatchObject({ cost: expect.any(Number), count: expect.any(Number) });
    const countries = JSON.parse((await raw({ action: 'getCountries' })).text);
    expect(countries['187']).toMatchObject({ id: 187, eng: 'United States', chn: '美国', visible: 1 });
    const services = JSON.parse((await raw({ action: 'getServicesList' })).text);
    expect(services.services).toEqual(
      expect.arrayContaining([
        { code: 'tg', name: 'Telegram' },
        { code: 'wa', name: 'WhatsApp' },
      ]),
    );
    const posted = await fetch(`${t.url}/stubs/handler_api.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: key, action: 'getBalance' }),
    });
    expect(await posted.text()).toMatch(/^ACCESS_BALANCE:\d+\.\d{4}$/);
  });
});
