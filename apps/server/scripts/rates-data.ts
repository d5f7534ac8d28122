/**
 * Generates the data files of migration 008 (the countries and the rates table's seed):
 *
 *   node --import tsx apps/server/scripts/rates-data.ts [output-prefix]
 *
 * (default prefix: apps/server/migrations/008_core_rates → `<prefix>.countries.csv`,
 * `<prefix>.rates.csv`). Countries are every region libphonenumber knows, with its calling code and
 * its name in English and Simplified Chinese from Node's Intl.DisplayNames (full ICU). Prices are the
 * table below: spec 001 §9's sample rates where it gives them (SMS 0.008 to 0.06, receive US 0.004,
 * Canada 0.006, UK 0.009, US/CA toll-free 0.02, cloudnumber receive 0.8, US rent 4.09 a month), the
 * former message_rates values, and stated defaults elsewhere. A data file of an applied migration is
 * never edited: later prices come in through the operator's import or a new migration's data file
 * (run this with another prefix).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';

const here = path.dirname(fileURLToPath(import.meta.url));
const prefix = process.argv[2] ?? path.join(here, '../migrations/008_core_rates');

const en = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const zh = new Intl.DisplayNames(['zh-Hans'], { type: 'region', fallback: 'none' });

/** Units to ten-thousandths (this script's only conversion; integers from here on). */
const m = (unit: number) => Math.round(unit * 10_000);

// USD (Coins and dollars). SMS per segment and MMS per message: the former message_rates.
const usdSms: Record<string, [sms: number, mms: number]> = {
  US: [0.008, 0.02],
  CA: [0.008, 0.02],
  GB: [0.04, 0.08],
  AU: [0.05, 0.1],
  CN: [0.03, 0.07],
  HK: [0.04, 0.08],
  TW: [0.045, 0.09],
  JP: [0.06, 0.12],
  SG: [0.035, 0.08],
  IN: [0.02, 0.05],
  PH: [0.025, 0.06],
  MX: [0.03, 0.07],
  DE: [0.06, 0.12],
  FR: [0.06, 0.12],
};
const usdSmsDefault: [number, number] = [0.06, 0.12];
// Outgoing calls per minute, common and economic line (decided; the spec gives no call rates).
const usdCall: Record<string, [common: number, economic: number]> = {
  US: [0.02, 0.012],
  CA: [0.02, 0.012],
  GB: [0.03, 0.02],
  AU: [0.05, 0.03],
  CN: [0.03, 0.02],
  HK: [0.03, 0.02],
  TW: [0.06, 0.04],
  JP: [0.08, 0.05],
  SG: [0.03, 0.02],
  IN: [0.03, 0.02],
  PH: [0.12, 0.08],
  MX: [0.04, 0.025],
  DE: [0.04, 0.025],
  FR: [0.04, 0.025],
};
const usdCallDefault: [number, number] = [0.15, 0.09];
// Incoming calls per minute on a number of the country (spec 001 §9), and toll-free numbers.
const usdReceive: Record<string, number> = { US: 0.004, CA: 0.006, GB: 0.009, AU: 0.009 };
const usdReceiveTollFree: Record<string, number> = { US: 0.02, CA: 0.02 };
// A number's monthly rent (spec 001 §9: US 4.09 a month; the numbers area's plans have their own tiers).
const usdRent: Record<string, number> = { US: 4.09, CA: 4.09, GB: 5.99, AU: 6.99 };
const usdRentTollFree: Record<string, number> = { US: 6.99, CA: 6.99 };

// CNY (cloudnumber's cloud coins): the former message_rates, receive 0.8 per country (spec), rent.
const cnySms: Record<string, [number, number]> = { US: [0.06, 0.15], CA: [0.06, 0.15], CN: [0.05, 0.15] };
const cnySmsDefault: [number, number] = [0.4, 0.9];
const cnyReceive = 0.8;
const cnyRent: Record<string, number> = { US: 29, CA: 29, GB: 39, AU: 45 };

const countries = getCountries()
  .map((code) => ({ code, telCode: getCountryCallingCode(code), en: en.of(code), zh: zh.of(code) }))
  .sort((a, b) => a.code.localeCompare(b.code));
for (const c of countries)
  if (!c.en || !c.zh) throw new Error(`no name for ${c.code}: run on a Node with full ICU`);
const position = (lang: string, name: (c: (typeof countries)[number]) => string) => {
  const collator = new Intl.Collator(lang);
  const order = [...countries].sort(
    (a, b) => collator.compare(name(a), name(b)) || a.code.localeCompare(b.code),
  );
  return new Map(order.map((c, i) => [c.code, i + 1]));
};
const sortEn = position('en', (c) => c.en!);
const sortZh = position('zh-Hans-u-co-pinyin', (c) => c.zh!);

const csvField = (v: string | number) =>
  /[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v);
const csv = (header: string[], rows: (string | number)[][]) =>
  [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';

type Row = [currency: string, kind: string, origin: string, country: string, variant: string, amount: number];
const rates: Row[] = [];
const add = (currency: string, kind: string, country: string, amount: number, variant = '*') =>
  rates.push([currency, kind, '*', country, variant, m(amount)]);

for (const country of [...countries.map((c) => c.code), '*']) {
  const [sms, mms] = usdSms[country] ?? usdSmsDefault;
  add('usd', 'sms', country, sms);
  add('usd', 'mms', country, mms);
  const [common, economic] = usdCall[country] ?? usdCallDefault;
  add('usd', 'call', country, common);
  add('usd', 'call_economic', country, economic);
  const [csms, cmms] = cnySms[country] ?? cnySmsDefault;
  add('cny', 'sms', country, csms);
  add('cny', 'mms', country, cmms);
}
for (const [country, amount] of Object.entries(usdReceive)) add('usd', 'receive', country, amount);
for (const [country, amount] of Object.entries(usdReceiveTollFree))
  add('usd', 'receive', country, amount, 'toll_free');
for (const [country, amount] of Object.entries(usdRent)) add('usd', 'number_month', country, amount);
for (const [country, amount] of Object.entries(usdRentTollFree))
  add('usd', 'number_month', country, amount, 'toll_free');
for (const country of Object.keys(cnyRent)) add('cny', 'receive', country, cnyReceive);
for (const [country, amount] of Object.entries(cnyRent)) add('cny', 'number_month', country, amount);

rates.sort((a, b) => a.join('\u0000').localeCompare(b.join('\u0000')));
writeFileSync(
  `${prefix}.countries.csv`,
  csv(
    ['code', 'tel_code', 'name_en', 'name_zh', 'sort_en', 'sort_zh'],
    countries.map((c) => [c.code, c.telCode, c.en!, c.zh!, sortEn.get(c.code)!, sortZh.get(c.code)!]),
  ),
);
writeFileSync(
  `${prefix}.rates.csv`,
  csv(['currency', 'kind', 'origin', 'country', 'variant', 'amount'], rates),
);
console.log(`${countries.length} countries, ${rates.length} rates → ${prefix}.{countries,rates}.csv`);
