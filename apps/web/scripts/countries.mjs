// Writes the static country lists the client loads (spec 000 §7: "static country list files, in
// English and in Chinese, sorted"): public/countries/en.json and zh.json. Names come from the ICU data
// of Node's Intl, calling codes from libphonenumber-js. Run: node scripts/countries.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';

const out = new URL('../public/countries/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const [lang, locale, collation] of [
  ['en', 'en', 'en'],
  ['zh', 'zh-Hans', 'zh-Hans-u-co-pinyin'],
]) {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const collator = new Intl.Collator(collation);
  const list = getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, telCode: getCountryCallingCode(code), show: true }))
    .sort((a, b) => collator.compare(a.name, b.name));
  writeFileSync(new URL(`${lang}.json`, out), JSON.stringify(list) + '\n');
  console.log(`countries/${lang}.json: ${list.length} countries`);
}
