/**
 * Generates the data files of migration 048 (the US cell phone plans of the embedded plans page):
 *
 *   node --import tsx apps/server/scripts/cell-plans-data.ts [output-prefix]
 *
 * (default prefix: apps/server/migrations/048_cell_plans → `<prefix>.cell_plans.csv`,
 * `<prefix>.rates.csv`).
 *
 * Source and assumptions: the four plans follow the shape of the public US prepaid (MVNO) plan
 * ladders of 2025 — a small-data plan, a mid-data plan, unlimited, and unlimited with international
 * calling (as Mint Mobile, US Mobile and Tello list them) — with their 30-day list prices rounded to
 * whole dollars: 15, 20, 30 and 40 USD. Longer validity is cheaper per month, as those carriers sell
 * it: 90 days −10 %, 180 days −15 %, 365 days −25 %, rounded to the cent. A physical SIM kit costs
 * 2.00 USD (an eSIM nothing). Cloud coins (cloudnumber): the USD amount × 7. Every price is a row of
 * the one rates table (kind `cell_plan`, variant `<plan code>_<validity type>`; kind `cell_sim`,
 * variant `physical`), so the operator changes them with the pricing import; a data file of an
 * applied migration is never edited.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const prefix = process.argv[2] ?? path.join(here, '../migrations/048_cell_plans');

/** Units to ten-thousandths (this script's only conversion); cents rounded first. */
const m = (unit: number) => Math.round(Math.round(unit * 100) * 100);

// code → [30-day USD price, high-speed data GB, unlimited (slower data after it), hotspot GB, international calling]
const plans: [string, number, number, boolean, number, boolean][] = [
  ['starter', 15, 5, false, 5, false],
  ['plus', 20, 15, false, 10, false],
  ['unlimited', 30, 35, true, 15, false],
  ['global', 40, 50, true, 20, true],
];
// validity type (contract constants.validityTypes) → [days, months, discount]
const validity: [number, number, number, number][] = [
  [1, 30, 1, 0],
  [2, 90, 3, 0.1],
  [3, 180, 6, 0.15],
  [4, 365, 12, 0.25],
];
const currencies: [string, number][] = [
  ['usd', 1],
  ['cny', 7],
];

const planRows = ['id,code,country,data_gb,unlimited,hotspot_gb,intl_calls,sort'];
const rates = ['currency,kind,origin,country,variant,amount'];
plans.forEach(([code, price, data, unlimited, hotspot, intl], i) => {
  planRows.push([i + 1, code, 'US', data, unlimited, hotspot, intl, i].join(','));
  for (const [vt, , months, off] of validity)
    for (const [cur, factor] of currencies)
      rates.push(
        [cur, 'cell_plan', '*', 'US', `${code}_${vt}`, m(price * months * (1 - off) * factor)].join(','),
      );
});
for (const [cur, factor] of currencies)
  rates.push([cur, 'cell_sim', '*', 'US', 'physical', m(2 * factor)].join(','));

writeFileSync(`${prefix}.cell_plans.csv`, planRows.join('\n') + '\n');
writeFileSync(`${prefix}.rates.csv`, rates.join('\n') + '\n');
console.log(`${planRows.length - 1} plans, ${rates.length - 1} rates`);
