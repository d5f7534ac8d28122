import type { Lang, Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import { cursorPages, epochMsSql, moneySql, type CursorPageValues } from './jsonPage';

export type RentalKind = 'number' | 'code_number';

/** A rental due for its renewal, as the sweep reads it. */
export interface DueRental {
  id: number;
  kind: RentalKind;
  accountId: number;
  /** number: the rented number's id */
  numberId: number | null;
  /** code_number: the verification number and its app */
  phone: string | null;
  app: string | null;
  validUntil: Date;
}

/** An entry of the one rental history (charge signed as its bill). */
export interface RentalHistoryRow {
  id: number;
  kind: RentalKind;
  accountId: number;
  fullNumber: string;
  telCode: string | null;
  number: string | null;
  app: string | null;
  country: string | null;
  type: number;
  charge: Minor;
  planId: number | null;
  ledgerId: number | null;
  nextPaymentAt: Date | null;
  resAt: Date | null;
  restored: boolean;
  createdAt: Date;
}

export const historyCols = [
  'id',
  sql<RentalKind>`kind`.as('kind'),
  'account_id as accountId',
  'full_number as fullNumber',
  'tel_code as telCode',
  'number',
  'app',
  'country',
  'type',
  'charge',
  'plan_id as planId',
  'ledger_id as ledgerId',
  'next_payment_at as nextPaymentAt',
  'res_at as resAt',
  'restored',
  'created_at as createdAt',
] as const;

/** What a new history entry says (a number's: tel code and national number; a verification number's: app and country). */
export type NewHistoryEntry = {
  accountId: number;
  type: number;
  /** signed as its bill (a charge is negative), 0 without a bill */
  charge: Minor;
  ledgerId: number | null;
  planId?: number | null;
  nextPaymentAt?: Date | null;
  resAt?: Date | null;
  createdAt: Date;
} & (
  | { telCode: string; number: string; app?: undefined; country?: undefined; phone?: undefined }
  | { phone: string; app: string; country: string; telCode?: undefined; number?: undefined }
);

/** Rentals of both kinds (migration 150): the renewal sweep's due rows and the one history. */
export const rentalsRepo = {
  /**
   * A page of the rentals due at `now` (valid until then or before, and renewing; a rented number
   * that does not renew is due too: it is released then), in (valid_until, id) order after `after`
   * (the last row of the previous page): a sweep reads each due row once, however many there are,
   * whether or not its renewal ran meanwhile (index rentals_due).
   */
  async due(
    q: Q,
    now: Date,
    limit: number,
    after: { validUntil: Date; id: number } | null = null,
  ): Promise<DueRental[]> {
    let query = q
      .selectFrom('rentals as r')
      .select([
        'r.id',
        sql<RentalKind>`r.kind`.as('kind'),
        'r.account_id as accountId',
        'r.number_id as numberId',
        'r.phone',
        'r.app',
        'r.valid_until as validUntil',
      ])
      .where('r.valid_until', '<=', now)
      .where((w) => w.or([w('r.number_id', 'is not', null), w('r.auto_renew', '=', true)]));
    if (after)
      query = query.where(
        sql<boolean>`(r.valid_until, r.id) > (${after.validUntil}::timestamptz, ${after.id}::bigint)`,
      );
    return query.orderBy('r.valid_until').orderBy('r.id').limit(limit).execute();
  },

  async insertHistory(tx: Tx, h: NewHistoryEntry): Promise<RentalHistoryRow> {
    return tx
      .insertInto('rental_history')
      .values({
        account_id: h.accountId,
        full_number: h.phone ?? h.telCode + h.number,
        tel_code: h.telCode ?? null,
        number: h.number ?? null,
        app: h.app ?? null,
        country: h.country ?? null,
        type: h.type,
        charge: h.charge,
        plan_id: h.planId ?? null,
        ledger_id: h.ledgerId,
        next_payment_at: h.nextPaymentAt ?? null,
        res_at: h.resAt ?? null,
        created_at: h.createdAt,
      })
      .returning(historyCols)
      .executeTakeFirstOrThrow();
  },

  async historyEntry(
    q: Q,
    kind: RentalKind,
    accountId: number,
    id: number,
  ): Promise<RentalHistoryRow | null> {
    return (
      (await q
        .selectFrom('rental_history')
        .select(historyCols)
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * A page of the account's verification-number history in [from, to), newest first (created_at, then
   * id: the order of rental_history_account), after the cursor (the id of the previous page's last
   * entry; an id not of this account's: nothing), as the contract's VerificationHistoryEntry[] in JSON text,
   * with the next page's cursor when another page follows. An app is named in `lang` (its code when
   * the catalogue no longer offers it).
   */
  codeNumberPage(q: Q, p: CursorPageValues & { lang: Lang }) {
    return codeNumberPages(q, p);
  },
};

const day = (at: string) =>
  sql<string>`coalesce(to_char(${sql.ref(at)} AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '')`;
const codeNumberPages = cursorPages<CursorPageValues & { lang: Lang }>((q, p, after) =>
  q
    .selectFrom('rental_history')
    .select([
      sql<string>`id::text`.as('_id'),
      sql<string>`'+' || full_number`.as('number'),
      sql<string>`coalesce((SELECT CASE WHEN ${p.lang} = 'zh' THEN a.name_zh ELSE a.name_en END
                              FROM code_apps a WHERE a.app = rental_history.app AND a.enabled), app, '')`.as(
        'name',
      ),
      'type',
      epochMsSql(sql.ref('created_at')).as('date'),
      // signed as its bill: a month kept is a negative amount
      moneySql(sql.ref('charge')).as('charge'),
      sql<string>`id::text`.as('historyId'),
      day('res_at').as('resDate'),
      day('next_payment_at').as('nextPaymentDate'),
    ])
    .where('account_id', '=', p.accountId)
    .where('kind', '=', 'code_number')
    .where('created_at', '>=', p.from)
    .where('created_at', '<', p.to)
    .$if(after, (b) =>
      b.where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('created_at', 'id'),
          '<',
          selectFrom('rental_history as c')
            .select(['c.created_at', 'c.id'])
            .where('c.id', '=', p.before!)
            .where('c.account_id', '=', p.accountId)
            .where('c.kind', '=', 'code_number')
            .$asTuple('created_at', 'id'),
        ),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit),
);
