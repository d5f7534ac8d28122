import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, minor, toMinor } from '@numa/contract';
import {
  connect,
  inbox,
  makeUser,
  money,
  startChatApp,
  textPayload,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';

/** One rates table answers what things cost, per brand currency; chats charge from it. */
let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
beforeAll(async () => {
  t = await startChatApp();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

describe('pricing', () => {
  it("answers a brand's rates from the seeded table: a country's own row, else '*'", async () => {
    const { pricing } = t.app.deps;
    expect(await pricing.rate('numa', 'sms', { country: 'US' })).toBe(80);
    expect(await pricing.rate('wephone', 'mms', { country: 'CA' })).toBe(200);
    expect(await pricing.rate('numa', 'sms', { country: 'GB' })).toBe(400);
    expect(await pricing.rate('numa', 'sms', { country: 'KE' })).toBe(600);
    expect(await pricing.rate('numa', 'sms', { country: null })).toBe(600);
    expect(await pricing.rate('cloudnumber', 'sms', { country: 'US' })).toBe(600);
    expect(await pricing.rate('cloudnumber', 'mms', { country: 'KE' })).toBe(9000);
    // spec 001 §9's sample rates
    expect(await pricing.receivePerMinute('numa', 'US')).toBe(40);
    expect(await pricing.receivePerMinute('numa', 'CA')).toBe(60);
    expect(await pricing.receivePerMinute('numa', 'GB')).toBe(90);
    expect(await pricing.receivePerMinute('numa', 'US', true)).toBe(200);
    expect(await pricing.receivePerMinute('cloudnumber', 'GB')).toBe(8000);
    expect(await pricing.numberRent('numa', 'US')).toBe(toMinor(4.09));
    expect(await pricing.numberRent('numa', 'FR')).toBeNull();
    expect(await pricing.callPerMinute('numa', { origin: 'US', country: 'US', line: 'economic' })).toBe(120);
    expect(await pricing.codeFee('jiema', 'whatsapp', 'US')).toBe(2500); // migration 025: the codes area's rows
    expect(await pricing.codeFee('cloudnumber', 'whatsapp', 'US')).toBe(7000);
  });

  it('computes message charges per SMS segment or per MMS', () => {
    const { pricing } = t.app.deps;
    const rates = { sms: minor(80), mms: minor(200) };
    expect(pricing.messageCharge({ msgType: 'sms', text: 'hi', rates })).toEqual({ charge: 80, segments: 1 });
    expect(pricing.messageCharge({ msgType: 'sms', text: 'x'.repeat(161), rates })).toEqual({
      charge: 160,
      segments: 2,
    });
    expect(pricing.messageCharge({ msgType: 'mms', text: 'x'.repeat(500), rates })).toEqual({
      charge: 200,
      segments: 1,
    });
    expect(pricing.messageCharge({ msgType: 'sms', text: 'hi', rates: { sms: null, mms: null } })).toBeNull();
  });

  it("pages the rates page's tabs: every country, named in the caller's language, in the brand's currency", async () => {
    const { pricing } = t.app.deps;
    const call = await pricing.countryRates({
      brand: 'numa',
      rateType: 'call',
      rateCountryCode: 'US',
      lang: 'en',
      pageNo: 1,
      pageSize: 100,
    });
    expect(call.totalRows).toBeGreaterThan(240);
    expect(call.countryRateList).toHaveLength(100);
    const names = call.countryRateList.map((r) => r.description);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
    const zh = await pricing.countryRates({
      brand: 'numa',
      rateType: 'sms',
      rateCountryCode: 'US',
      lang: 'zh',
      pageNo: 1,
      pageSize: 5,
    });
    // by pinyin: 阿尔巴尼亚 (A'erbaniya) and 阿尔及利亚 (A'erjiliya) come first
    expect(zh.countryRateList.map((r) => r.description).slice(0, 2)).toEqual(['阿尔巴尼亚', '阿尔及利亚']);
    const all = await pricing.countryRates({
      brand: 'numa',
      rateType: 'call',
      rateCountryCode: 'US',
      lang: 'en',
      pageNo: 1,
      pageSize: 1000,
    });
    expect(all.countryRateList.find((r) => r.description === 'United States')).toEqual({
      description: 'United States',
      countryCode: '1',
      commonLineRate: 0.02,
      economicLineRate: 0.012,
    });
    const receive = await pricing.countryRates({
      brand: 'numa',
      rateType: 'receive',
      rateCountryCode: 'US',
      lang: 'zh',
      pageNo: 1,
      pageSize: 100,
    });
    expect(receive.totalRows).toBe(6);
    expect(receive.countryRateList).toContainEqual({
      description: '美国 (免费号码)',
      countryCode: '1',
      commonLineRate: 0.02,
      economicLineRate: null,
    });
    const cloud = await pricing.countryRates({
      brand: 'cloudnumber',
      rateType: 'receive',
      rateCountryCode: 'US',
      lang: 'zh',
      pageNo: 1,
      pageSize: 100,
    });
    expect(cloud.countryRateList.every((r) => r.commonLineRate === 0.8)).toBe(true);
    const sms = await pricing.countryRates({
      brand: 'wetalk',
      rateType: 'sms',
      rateCountryCode: 'US',
      lang: 'en',
      pageNo: 3,
      pageSize: 100,
    });
    expect(sms.countryRateList.length).toBeGreaterThan(0);
    expect(sms.countryRateList.every((r) => r.economicLineRate === null)).toBe(true);
    for (const page of [call, receive, sms])
      expect(endpoints.getCountryRates.output.safeParse(page).success).toBe(true);
  });

  it("imports an operator's rates: a row per key replaced, an origin's own row preferred, a kind replaced whole", async () => {
    const { pricing } = t.app.deps;
    await pricing.importRates([
      { currency: 'usd', kind: 'call', origin: 'GB', country: 'US', variant: '*', amount: minor(100) },
    ]);
    const fromGb = await pricing.countryRates({
      brand: 'numa',
      rateType: 'call',
      rateCountryCode: 'GB',
      lang: 'en',
      pageNo: 1,
      pageSize: 1000,
    });
    const fromUs = await pricing.countryRates({
      brand: 'numa',
      rateType: 'call',
      rateCountryCode: 'US',
      lang: 'en',
      pageNo: 1,
      pageSize: 1000,
    });
    expect(fromGb.countryRateList.find((r) => r.description === 'United States')?.commonLineRate).toBe(0.01);
    expect(fromUs.countryRateList.find((r) => r.description === 'United States')?.commonLineRate).toBe(0.02);
    expect(fromGb.totalRows).toBe(fromUs.totalRows);
    expect(await pricing.callPerMinute('numa', { origin: 'GB', country: 'US', line: 'common' })).toBe(100);

    const result = await pricing.importRates(
      [
        {
          currency: 'cny',
          kind: 'number_month',
          origin: '*',
          country: 'US',
          variant: '*',
          amount: minor(300_000),
        },
        {
          currency: 'cny',
          kind: 'number_month',
          origin: '*',
          country: 'JP',
          variant: '*',
          amount: minor(350_000),
        },
      ],
      { replaceKinds: true },
    );
    expect(result).toEqual({ written: 2, deleted: 3 }); // CA, GB, AU went
    const numbers = await pricing.countryRates({
      brand: 'cloudnumber',
      rateType: 'number',
      rateCountryCode: 'US',
      lang: 'en',
      pageNo: 1,
      pageSize: 100,
    });
    expect(numbers.countryRateList.map((r) => [r.description, r.commonLineRate])).toEqual([
      ['Japan', 35],
      ['United States', 30],
    ]);
  });

  it('is what a text costs: a new SMS rate applies to the next send', async () => {
    const a = await makeUser(t, { number: '+14155550851', balance: 1 });
    const b = await makeUser(t, { number: '+14155550852' });
    await t.app.deps.pricing.importRates([
      { currency: 'usd', kind: 'sms', origin: '*', country: 'US', variant: '*', amount: minor(95) },
    ]);
    const s = await connect(t.url, a.token);
    sockets.push(s);
    const i = inbox(s);
    const p = textPayload(a.number, b.number, 'priced from the rates table');
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0 });
    const { balance, bills } = await money(t.db, a.accountId);
    expect(bills[0]).toMatchObject({ type: 2, charge: -95 });
    expect(balance).toBe(10_000 - 95);
  });
});
