/**
 * Generates the data files of migration 020 (the plan catalogue and its prices):
 *
 *   node --import tsx apps/server/scripts/plans-data.ts [output-prefix]
 *
 * (default prefix: apps/server/migrations/020_numbers → `<prefix>.plans.csv`, `<prefix>.rates.csv`).
 * Plans: Unlimited, Unlimited Voice, Unlimited Texts and Pay As You Go (spec 001 §9), each with month,
 * quarter and year tiers per New-number country. Prices: Pay As You Go is the number's rent — spec
 * 001 §9's sample US 4.09 a month, 11.07 a quarter, 37.08 a year, i.e. 0.40 a month off for a quarter
 * and 1.00 off for a year — on the 008 rent of each country; the other plans add a monthly amount for
 * what they include (decided below). Activation fee 0 (spec). Cloud coins: the 008 cny rent, the
 * same steps times 7. A data file of an applied migration is never edited: later prices come in
 * through the operator's import (pricing) or a new migration's data file.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const prefix = process.argv[2] ?? path.join(here, '../migrations/020_numbers');

/** Units to ten-thousandths (this script's only conversion). */
const m = (unit: number) => Math.round(unit * 10_000);

// country code → [kind, usd month rent, cny month rent] (the 008 number_month rows)
const countries: [string, string, number, number][] = [
  ['US', 'local', 4.09, 29],
  ['CA', 'local', 4.09, 29],
  ['GB', 'mobile', 5.99, 39],
  ['AU', 'mobile', 6.99, 45],
  ['TollFree', 'tollFree', 6.99, 45],
];
// group → [monthly extra in USD, canForward, canVoicemail, chargeType]
const groups: [string, number, boolean, boolean, number][] = [
  ['unlimited', 8, true, true, 1],
  ['unlimitedVoice', 5, true, true, 1],
  ['unlimitedTexts', 3, false, true, 1],
  ['payAsYouGo', 0, false, false, 2],
];
// period → [months, monthly reduction in USD]
const periods: [string, number, number][] = [
  ['month', 1, 0],
  ['quarter', 3, 0.4],
  ['year', 12, 1],
];

const plans = ['id,country,kind,plan_group,period,charge_type,can_forward,can_voicemail,activation_fee,sort'];
const rates = ['currency,kind,origin,country,variant,amount'];
let id = 1;
for (const [country, kind, usd, cny] of countries) {
  let sort = 0;
  for (const [group, extra, fwd, vm, chargeType] of groups) {
    for (const [period, months, off] of periods) {
      plans.push([id, country, kind, group, period, chargeType, fwd, vm, 0, sort++].join(','));
      rates.push(
        ['usd', 'plan', '*', country, `${group}_${period}`, m((usd + extra - off) * months)].join(','),
      );
      rates.push(
        ['cny', 'plan', '*', country, `${group}_${period}`, m((cny + (extra - off) * 7) * months)].join(','),
      );
      id++;
    }
  }
}
writeFileSync(`${prefix}.plans.csv`, plans.join('\n') + '\n');
writeFileSync(`${prefix}.rates.csv`, rates.join('\n') + '\n');
console.log(`${plans.length - 1} plans, ${rates.length - 1} rates`);
