import { lazy } from '../lib/lazy';
import { fromMinor, toMinor } from '@numa/contract';
import type { RateRow } from '../repositories/rates';

/**
 * The operator's rates file (`npm run admin -- rates import <file.csv>`; `rates export` writes the
 * same): a header line, then one rate a line. `price` is in the currency's unit (Coins/dollars for
 * usd, cloud coins for cny), at most 4 decimals, per unit of the kind (segment, message, minute,
 * month, code). `origin`, `country` and `variant` are '*' for "any".
 */
export const ratesCsvColumns = ['currency', 'kind', 'origin', 'country', 'variant', 'price'] as const;

/** What a file's values are checked against: the kinds and places the rates table already knows. */
export interface RateKeys {
  kinds: ReadonlySet<string>;
  /** ISO codes of the countries table, plus the special places rows already use (TollFree …) */
  places: ReadonlySet<string>;
}

export type RatesCsvResult = { ok: true; rows: RateRow[] } | { ok: false; errors: string[] };

const currencies = new Set(['usd', 'cny']);
const variantRe = /^(\*|[a-z0-9][a-z0-9_.-]{0,63})$/;
const priceRe = /^\d{1,9}(\.\d{1,4})?$/;
/** errors listed before the rest are summed up */
const maxErrors = 50;

/** Checks every line; the rows only when every one is right (the import is all or nothing). */
export function parseRatesCsv(text: string, known: RateKeys): RatesCsvResult {
  let records: string[][];
  try {
    records = lazy
      .csvParse()
      .parse(text, { skip_empty_lines: true, trim: true, relax_column_count: true, bom: true });
  } catch (err) {
    return { ok: false, errors: [`not a CSV file: ${(err as Error).message}`] };
  }
  const [header, ...lines] = records;
  if (!header || header.join(',') !== ratesCsvColumns.join(','))
    return { ok: false, errors: [`line 1: the header must be ${ratesCsvColumns.join(',')}`] };
  if (!lines.length) return { ok: false, errors: ['the file has no rates'] };

  const errors: string[] = [];
  const rows: RateRow[] = [];
  const seen = new Map<string, number>();
  lines.forEach((cells, i) => {
    const line = i + 2;
    const bad = (why: string) => errors.push(`line ${line}: ${why}`);
    if (cells.length !== ratesCsvColumns.length)
      return bad(`expected ${ratesCsvColumns.length} values, found ${cells.length}`);
    const [currency, kind, origin, country, variant, price] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const before = errors.length;
    if (!currencies.has(currency)) bad(`currency must be usd or cny, not "${currency}"`);
    if (!known.kinds.has(kind)) bad(`unknown kind "${kind}" (known: ${[...known.kinds].sort().join(', ')})`);
    for (const [name, v] of [
      ['origin', origin],
      ['country', country],
    ] as const)
      if (v !== '*' && !known.places.has(v)) bad(`unknown ${name} "${v}" (an ISO country code, or *)`);
    if (!variantRe.test(variant)) bad(`variant must be * or a lower-case key, not "${variant}"`);
    if (!priceRe.test(price)) bad(`price must be a number ≥ 0 with at most 4 decimals, not "${price}"`);
    if (errors.length > before) return;
    const key = [currency, kind, origin, country, variant].join(',');
    const first = seen.get(key);
    if (first !== undefined) return bad(`the same rate as line ${first}`);
    seen.set(key, line);
    rows.push({ currency, kind, origin, country, variant, amount: toMinor(Number(price)) });
  });
  if (errors.length > maxErrors) {
    const more = errors.length - maxErrors;
    errors.length = maxErrors;
    errors.push(`… and ${more} more`);
  }
  return errors.length ? { ok: false, errors } : { ok: true, rows };
}

/** The rates as the import reads them (so an operator can export, edit and import). */
export function ratesToCsv(rows: readonly RateRow[]): string {
  const lines = [ratesCsvColumns.join(',')];
  for (const r of rows)
    lines.push([r.currency, r.kind, r.origin, r.country, r.variant, String(fromMinor(r.amount))].join(','));
  return `${lines.join('\n')}\n`;
}
