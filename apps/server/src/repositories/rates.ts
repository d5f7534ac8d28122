import type { Minor } from '@numa/contract';
import { sql, type Expression } from 'kysely';
import type { Q, Tx } from '../db';

/** A row of the rates table (migration 008). */
export interface RateRow {
  currency: string;
  kind: string;
  /** '*' when it applies from anywhere */
  origin: string;
  /** ISO country, or '*' for any other */
  country: string;
  /** '*' or a finer key (toll_free, an app) */
  variant: string;
  amount: Minor;
}

type Key = string | Expression<string>;

export interface RateKey {
  currency: string;
  kind: string;
  /** ISO country; null or undefined: only the '*' row applies */
  country?: Key | null;
  origin?: Key | null;
  variant?: Key | null;
}

/**
 * The rate of a key as a scalar subquery (for statements that read a price along with other facts):
 * the most specific row wins, a country's own before '*', then an origin's own, then a variant's own.
 */
export function rateSubquery(q: Q, k: RateKey) {
  return q
    .selectFrom('rates as r')
    .select('r.amount')
    .where('r.currency', '=', k.currency)
    .where('r.kind', '=', k.kind)
    .where('r.country', 'in', [k.country ?? '*', '*'])
    .where('r.origin', 'in', [k.origin ?? '*', '*'])
    .where('r.variant', 'in', [k.variant ?? '*', '*'])
    .orderBy(sql`r.country = '*'`)
    .orderBy(sql`r.origin = '*'`)
    .orderBy(sql`r.variant = '*'`)
    .limit(1);
}

export interface CountryRateRow {
  country: string;
  variant: string;
  telCode: string;
  nameEn: string;
  nameZh: string;
  primary: Minor;
  /** the second kind's amount (the economic line of calls), when one was asked for */
  secondary: Minor | null;
}

/** The rates table: reads for pricing and the rates page, and the operator's import. */
export const ratesRepo = {
  async rate(q: Q, k: RateKey): Promise<Minor | null> {
    const row = await q.selectNoFrom(rateSubquery(q, k).as('amount')).executeTakeFirst();
    return row?.amount ?? null;
  },

  /**
   * A page of a kind's per-country rates (the countries with a row of their own, not '*'), named
   * from the countries table, ordered by name in the caller's language; for each, `secondary` is `kind2`'s amount for
   * the same country and variant. `origin` prefers rows for that origin over '*' ones.
   */
  async countryPage(
    q: Q,
    p: {
      currency: string;
      kind: string;
      kind2?: string;
      origin?: string;
      lang: 'en' | 'zh';
      limit: number;
      offset: number;
    },
  ): Promise<{ total: number; rows: CountryRateRow[] }> {
    const origin = p.origin ?? '*';
    const base = q
      .selectFrom('rates as r')
      .innerJoin('countries as c', 'c.code', 'r.country')
      .distinctOn(['r.country', 'r.variant'])
      .select([
        'r.country',
        'r.variant',
        'r.origin',
        'r.amount',
        'c.tel_code',
        'c.name_en',
        'c.name_zh',
        'c.sort_en',
        'c.sort_zh',
      ])
      .where('r.currency', '=', p.currency)
      .where('r.kind', '=', p.kind)
      .where('r.origin', 'in', [origin, '*'])
      .orderBy('r.country')
      .orderBy('r.variant')
      .orderBy(sql`r.origin = '*'`);
    const [count, rows] = await Promise.all([
      q
        .selectFrom(base.as('b'))
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirst(),
      q
        .selectFrom(base.as('b'))
        .select([
          'b.country',
          'b.variant',
          'b.tel_code as telCode',
          'b.name_en as nameEn',
          'b.name_zh as nameZh',
          'b.amount as primary',
          (p.kind2
            ? rateSubquery(q, {
                currency: p.currency,
                kind: p.kind2,
                origin,
                country: sql.ref<string>('b.country'),
                variant: sql.ref<string>('b.variant'),
              })
            : sql<null>`NULL`
          ).as('secondary'),
        ])
        .orderBy(p.lang === 'zh' ? 'b.sort_zh' : 'b.sort_en')
        .orderBy('b.variant')
        .limit(p.limit)
        .offset(p.offset)
        .execute(),
    ]);
    return { total: count?.n ?? 0, rows: rows as CountryRateRow[] };
  },

  /** The kinds the table has, and the places (countries, special keys like TollFree) a rate may name. */
  async keys(q: Q): Promise<{ kinds: string[]; places: string[] }> {
    const [kinds, countries, used] = await Promise.all([
      q.selectFrom('rates').select('kind').distinct().execute(),
      q.selectFrom('countries').select('code').execute(),
      q
        .selectFrom('rates')
        .select('country as place')
        .union(q.selectFrom('rates').select('origin as place'))
        .execute(),
    ]);
    return {
      kinds: kinds.map((k) => k.kind),
      places: [...countries.map((c) => c.code), ...used.map((u) => u.place)].filter((p) => p !== '*'),
    };
  },

  /** Every rate, in key order (the operator's export). */
  all: (q: Q, f: { currency?: string; kind?: string } = {}): Promise<RateRow[]> => {
    let query = q.selectFrom('rates').select(['currency', 'kind', 'origin', 'country', 'variant', 'amount']);
    if (f.currency) query = query.where('currency', '=', f.currency);
    if (f.kind) query = query.where('kind', '=', f.kind);
    return query
      .orderBy('currency')
      .orderBy('kind')
      .orderBy('country')
      .orderBy('origin')
      .orderBy('variant')
      .execute() as Promise<RateRow[]>;
  },

  /**
   * Writes rates (the operator's import, a data migration): each row replaces the one of its key.
   * With `replaceKinds`, the rows of every (currency, kind) present in the import that the import
   * does not name are deleted, so the import is the whole table of those kinds.
   */
  async importRates(
    tx: Tx,
    rows: readonly RateRow[],
    opts: { replaceKinds?: boolean } = {},
  ): Promise<{ written: number; deleted: number }> {
    let written = 0;
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      const res = await tx
        .insertInto('rates')
        .values(
          batch.map((r) => ({
            currency: r.currency,
            kind: r.kind,
            origin: r.origin,
            country: r.country,
            variant: r.variant,
            amount: r.amount,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['currency', 'kind', 'country', 'origin', 'variant'])
            .doUpdateSet((eb) => ({ amount: eb.ref('excluded.amount'), updated_at: sql`now()` })),
        )
        .executeTakeFirst();
      written += Number(res.numInsertedOrUpdatedRows ?? 0);
    }
    let deleted = 0;
    if (opts.replaceKinds) {
      const kinds = [...new Set(rows.map((r) => `${r.currency}\u0000${r.kind}`))].map(
        (s) => s.split('\u0000') as [string, string],
      );
      const keep = new Set(
        rows.map((r) => [r.currency, r.kind, r.country, r.origin, r.variant].join('\u0000')),
      );
      for (const [currency, kind] of kinds) {
        const present = await tx
          .selectFrom('rates')
          .select(['country', 'origin', 'variant'])
          .where('currency', '=', currency)
          .where('kind', '=', kind)
          .execute();
        const gone = present.filter(
          (r) => !keep.has([currency, kind, r.country, r.origin, r.variant].join('\u0000')),
        );
        for (const g of gone) {
          await tx
            .deleteFrom('rates')
            .where('currency', '=', currency)
            .where('kind', '=', kind)
            .where('country', '=', g.country)
            .where('origin', '=', g.origin)
            .where('variant', '=', g.variant)
            .execute();
          deleted++;
        }
      }
    }
    return { written, deleted };
  },
};
