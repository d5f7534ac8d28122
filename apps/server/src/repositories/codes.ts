import type { Minor } from '@numa/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Q, Tx } from '../db';
import type { DB } from '../db/schema';

export interface LockRow {
  id: number;
  accountId: number;
  brand: string;
  phone: string;
  app: string;
  country: string;
  fee: Minor;
  supplier: string;
  supplierRef: string | null;
  lockedAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endReason: string | null;
}

export interface CodeSmsRow {
  id: number;
  smsId: string;
  lockId: number;
  accountId: number;
  phone: string;
  app: string;
  sender: string;
  text: string;
  code: string;
  charge: Minor;
  ledgerId: number | null;
  receivedAt: Date;
}

export interface PoolRow {
  phone: string;
  country: string;
  telCode: string;
  supplier: string;
  apps: string;
  enabled: boolean;
}

export interface CodeNumberRow {
  phone: string;
  app: string;
  accountId: number;
  country: string;
  firstUsedAt: Date;
  validUntil: Date;
  subStatus: number;
  monthRent: Minor;
}

const lockCols = [
  'l.id',
  'l.account_id as accountId',
  'l.brand',
  'l.phone',
  'l.app',
  'l.country',
  'l.fee',
  'l.supplier',
  'l.supplier_ref as supplierRef',
  'l.locked_at as lockedAt',
  'l.expires_at as expiresAt',
  'l.ended_at as endedAt',
  'l.end_reason as endReason',
] as const;

const smsCols = [
  's.id',
  's.sms_id as smsId',
  's.lock_id as lockId',
  's.account_id as accountId',
  's.phone',
  's.app',
  's.sender',
  's.text',
  's.code',
  's.charge',
  's.ledger_id as ledgerId',
  's.received_at as receivedAt',
] as const;

const poolCols = [
  'p.phone',
  'p.country',
  'p.tel_code as telCode',
  'p.supplier',
  'p.apps',
  'p.enabled',
] as const;

/** A kept verification number is a rental of kind code_number (migration 150): key phone + app. */
const numberCols = [
  sql<string>`n.phone`.as('phone'),
  sql<string>`n.app`.as('app'),
  'n.account_id as accountId',
  sql<string>`n.country`.as('country'),
  'n.started_at as firstUsedAt',
  'n.valid_until as validUntil',
  sql<number>`CASE WHEN n.auto_renew THEN 1 ELSE 0 END`.as('subStatus'),
  'n.rent as monthRent',
] as const;

/** The pool number takes the app's codes ('' is every app). */
const takesApp = (app: string) =>
  sql<boolean>`(p.apps = '' OR position(${`,${app},`} in ',' || p.apps || ',') > 0)`;

/** Whether (phone, app) is free for `accountId` at `now`: no live lock and no other account's valid number. */
function freeFor(
  eb: ExpressionBuilder<DB & { p: DB['code_pool'] }, 'p'>,
  app: string,
  accountId: number | null,
  now: Date,
) {
  return eb.and([
    eb.not(
      eb.exists(
        eb
          .selectFrom('code_locks as l')
          .select('l.id')
          .whereRef('l.phone', '=', 'p.phone')
          .where('l.app', '=', app)
          .where('l.ended_at', 'is', null)
          .where('l.expires_at', '>', now),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('rentals as n')
          .select('n.phone')
          .whereRef('n.phone', '=', 'p.phone')
          .where('n.app', '=', app)
          .where((w) => w.or([w('n.valid_until', '>', now), w('n.auto_renew', '=', true)]))
          .$if(accountId !== null, (b) => b.where('n.account_id', '<>', accountId!)),
      ),
    ),
  ]);
}

/** Verification codes: the pool, locks, received code SMS, the accounts' verification numbers. */
export const codesRepo = {
  async poolNumber(q: Q, phone: string): Promise<PoolRow | null> {
    return (
      (await q
        .selectFrom('code_pool as p')
        .select(poolCols)
        .where('p.phone', '=', phone)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * Pool numbers of a supplier that take an app's codes in a country and are free now (for the
   * account, when given: its own numbers count as free), in a stable or a random order.
   */
  async freeNumbers(
    q: Q,
    p: {
      suppliers: string[];
      app: string;
      country: string;
      accountId: number | null;
      now: Date;
      limit: number;
      random?: boolean;
    },
  ): Promise<PoolRow[]> {
    return q
      .selectFrom('code_pool as p')
      .select(poolCols)
      .where('p.supplier', 'in', p.suppliers)
      .where('p.country', '=', p.country)
      .where('p.enabled', '=', true)
      .where(takesApp(p.app))
      .where((eb) => freeFor(eb, p.app, p.accountId, p.now))
      .$if(!!p.random, (b) => b.orderBy(sql`random()`))
      .$if(!p.random, (b) => b.orderBy('p.phone'))
      .limit(p.limit)
      .execute();
  },

  /** The account's verification numbers (all, or one app's, optionally one country's), valid or subscribed at `now`. */
  async accountNumbers(
    q: Q,
    p: { accountId: number; app?: string; country?: string; now: Date },
  ): Promise<CodeNumberRow[]> {
    return q
      .selectFrom('rentals as n')
      .select(numberCols)
      .where('n.account_id', '=', p.accountId)
      .where('n.kind', '=', 'code_number')
      .where((w) => w.or([w('n.valid_until', '>', p.now), w('n.auto_renew', '=', true)]))
      .$if(p.app !== undefined, (b) => b.where('n.app', '=', p.app!))
      .$if(p.country !== undefined, (b) => b.where('n.country', '=', p.country!))
      .orderBy('n.started_at', 'desc')
      .execute();
  },

  async numberHolder(q: Q, phone: string, app: string): Promise<CodeNumberRow | null> {
    return (
      (await q
        .selectFrom('rentals as n')
        .select(numberCols)
        .where('n.phone', '=', phone)
        .where('n.app', '=', app)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * The account's first code on (phone, app): the number becomes its own until `validUntil` unless
   * another account still holds it (then nothing changes). An own number keeps its first use.
   */
  async claimNumber(
    tx: Tx,
    p: { phone: string; app: string; accountId: number; country: string; now: Date; validUntil: Date },
  ) {
    await tx
      .insertInto('rentals')
      .values({
        phone: p.phone,
        app: p.app,
        account_id: p.accountId,
        country: p.country,
        started_at: p.now,
        valid_until: p.validUntil,
        auto_renew: false,
      })
      .onConflict((oc) =>
        oc
          .columns(['phone', 'app'])
          .doUpdateSet({
            account_id: p.accountId,
            started_at: p.now,
            valid_until: p.validUntil,
            auto_renew: false,
            rent: 0 as Minor,
          })
          .where((w) =>
            w.and([
              w('rentals.account_id', '<>', p.accountId),
              w('rentals.valid_until', '<=', p.now),
              w('rentals.auto_renew', '=', false),
            ]),
          ),
      )
      .execute();
  },

  /** Ends the live lock of (phone, app) when its window is over (a lock that outlived its job). */
  async endExpiredOn(tx: Tx, phone: string, app: string, now: Date): Promise<LockRow[]> {
    return tx
      .updateTable('code_locks as l')
      .set({ ended_at: now, end_reason: 'expired' })
      .where('l.phone', '=', phone)
      .where('l.app', '=', app)
      .where('l.ended_at', 'is', null)
      .where('l.expires_at', '<=', now)
      .returning(lockCols)
      .execute();
  },

  /** A new live lock; null when (phone, app) already has one (the unique index decides between racers). */
  async insertLock(
    tx: Tx,
    v: {
      accountId: number;
      brand: string;
      phone: string;
      app: string;
      country: string;
      fee: Minor;
      supplier: string;
      lockedAt: Date;
      expiresAt: Date;
    },
  ): Promise<LockRow | null> {
    const row = await tx
      .insertInto('code_locks')
      .values({
        account_id: v.accountId,
        brand: v.brand,
        phone: v.phone,
        app: v.app,
        country: v.country,
        fee: v.fee,
        supplier: v.supplier,
        locked_at: v.lockedAt,
        expires_at: v.expiresAt,
      })
      .onConflict((oc) => oc.columns(['phone', 'app']).where('ended_at', 'is', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row ? codesRepo.lockById(tx, row.id) : null;
  },

  /** The supplier's activation id of the account's last lock of (phone, app) before `beforeId` that had one. */
  async lastSupplierRef(
    q: Q,
    accountId: number,
    phone: string,
    app: string,
    beforeId: number,
  ): Promise<string | null> {
    const row = await q
      .selectFrom('code_locks')
      .select('supplier_ref')
      .where('account_id', '=', accountId)
      .where('phone', '=', phone)
      .where('app', '=', app)
      .where('id', '<', beforeId)
      .where('supplier_ref', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.supplier_ref ?? null;
  },

  async setSupplierRef(q: Q, lockId: number, ref: string) {
    await q.updateTable('code_locks').set({ supplier_ref: ref }).where('id', '=', lockId).execute();
  },

  async lockById(q: Q, id: number): Promise<LockRow | null> {
    return (
      (await q.selectFrom('code_locks as l').select(lockCols).where('l.id', '=', id).executeTakeFirst()) ??
      null
    );
  },

  /** The live lock of (phone, app), whoever holds it. */
  async liveLock(q: Q, phone: string, app: string): Promise<LockRow | null> {
    return (
      (await q
        .selectFrom('code_locks as l')
        .select(lockCols)
        .where('l.phone', '=', phone)
        .where('l.app', '=', app)
        .where('l.ended_at', 'is', null)
        .executeTakeFirst()) ?? null
    );
  },

  /** The live locks on a number, locked for the caller's transaction (a code SMS is being stored). */
  async liveLocksOn(tx: Tx, phone: string, now: Date): Promise<LockRow[]> {
    return tx
      .selectFrom('code_locks as l')
      .select(lockCols)
      .where('l.phone', '=', phone)
      .where('l.ended_at', 'is', null)
      .where('l.expires_at', '>', now)
      .orderBy('l.id')
      .forUpdate()
      .execute();
  },

  /** The account's newest lock of (phone, app), live or ended. */
  async latestLock(q: Q, accountId: number, phone: string, app: string): Promise<LockRow | null> {
    return (
      (await q
        .selectFrom('code_locks as l')
        .select(lockCols)
        .where('l.account_id', '=', accountId)
        .where('l.phone', '=', phone)
        .where('l.app', '=', app)
        .orderBy('l.id', 'desc')
        .limit(1)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * Serialises the locks one account takes (a transaction-scoped advisory lock, the same on PGlite and
   * PostgreSQL): the cap of live locks is counted and the lock inserted under it, so concurrent locks
   * of one account cannot all pass the count (issue 18). Other accounts' locks do not wait.
   */
  async serialiseAccountLocks(tx: Tx, accountId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('code-locks:' || ${accountId}::text, 0))`.execute(
      tx,
    );
  },

  /** The account's live locks at `now` (in the caller's transaction, after serialiseAccountLocks, to enforce the cap). */
  async liveLockCount(q: Q, accountId: number, now: Date): Promise<number> {
    const row = await q
      .selectFrom('code_locks')
      .select((s) => s.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /**
   * Ends a live lock (`onlyExpired`: only if its window is over at `now`); the row as ended, or null
   * when it had already ended (or is not over yet).
   */
  async endLock(
    q: Q,
    p: { id: number; reason: string; now: Date; onlyExpired?: boolean },
  ): Promise<LockRow | null> {
    const row = await q
      .updateTable('code_locks as l')
      .set({ ended_at: p.now, end_reason: p.reason })
      .where('l.id', '=', p.id)
      .where('l.ended_at', 'is', null)
      .$if(!!p.onlyExpired, (b) => b.where('l.expires_at', '<=', p.now))
      .returning(lockCols)
      .executeTakeFirst();
    return row ?? null;
  },

  async smsBySource(q: Q, sourceKey: string): Promise<CodeSmsRow | null> {
    return (
      (await q
        .selectFrom('code_sms as s')
        .select(smsCols)
        .where('s.source_key', '=', sourceKey)
        .executeTakeFirst()) ?? null
    );
  },

  /** Stores a code SMS; null when its source key was stored already. */
  async insertSms(
    tx: Tx,
    v: {
      smsId: string;
      sourceKey: string;
      lockId: number;
      accountId: number;
      phone: string;
      app: string;
      sender: string;
      text: string;
      code: string;
      charge: Minor;
      ledgerId: number | null;
      receivedAt: Date;
    },
  ): Promise<CodeSmsRow | null> {
    const row = await tx
      .insertInto('code_sms')
      .values({
        sms_id: v.smsId,
        source_key: v.sourceKey,
        lock_id: v.lockId,
        account_id: v.accountId,
        phone: v.phone,
        app: v.app,
        sender: v.sender,
        text: v.text,
        code: v.code,
        charge: v.charge,
        ledger_id: v.ledgerId,
        received_at: v.receivedAt,
      })
      .onConflict((oc) => oc.column('source_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    return (
      (await tx.selectFrom('code_sms as s').select(smsCols).where('s.id', '=', row.id).executeTakeFirst()) ??
      null
    );
  },

  /** The code SMS of a lock, newest first. */
  async smsOfLock(q: Q, lockId: number): Promise<CodeSmsRow[]> {
    return q
      .selectFrom('code_sms as s')
      .select(smsCols)
      .where('s.lock_id', '=', lockId)
      .orderBy('s.id', 'desc')
      .execute();
  },

  /** The account's (phone, app) number row, locked for the caller's transaction. */
  async numberForUpdate(tx: Tx, phone: string, app: string): Promise<CodeNumberRow | null> {
    return (
      (await tx
        .selectFrom('rentals as n')
        .select(numberCols)
        .where('n.phone', '=', phone)
        .where('n.app', '=', app)
        .forUpdate()
        .executeTakeFirst()) ?? null
    );
  },

  async setSubscription(
    tx: Tx,
    p: { phone: string; app: string; subStatus: 0 | 1; monthRent?: Minor; validUntil?: Date },
  ) {
    await tx
      .updateTable('rentals')
      .set({
        auto_renew: p.subStatus === 1,
        ...(p.monthRent !== undefined ? { rent: p.monthRent } : {}),
        ...(p.validUntil !== undefined ? { valid_until: p.validUntil } : {}),
      })
      .where('phone', '=', p.phone)
      .where('app', '=', p.app)
      .execute();
  },

  /** The account's code SMS of (phone, app) in a month, newest first, after the cursor (an id). */
  async smsPage(
    q: Q,
    p: {
      accountId: number;
      phone: string;
      app: string;
      from: Date;
      to: Date;
      before: number | null;
      limit: number;
    },
  ): Promise<CodeSmsRow[]> {
    return q
      .selectFrom('code_sms as s')
      .select(smsCols)
      .where('s.account_id', '=', p.accountId)
      .where('s.phone', '=', p.phone)
      .where('s.app', '=', p.app)
      .where('s.received_at', '>=', p.from)
      .where('s.received_at', '<', p.to)
      .$if(p.before !== null, (b) => b.where('s.id', '<', p.before!))
      .orderBy('s.id', 'desc')
      .limit(p.limit)
      .execute();
  },

  /** The newest locks of a brand (operators). */
  async recentLocks(q: Q, brand: string, limit: number): Promise<LockRow[]> {
    return q
      .selectFrom('code_locks as l')
      .select(lockCols)
      .where('l.brand', '=', brand)
      .orderBy('l.id', 'desc')
      .limit(limit)
      .execute();
  },

  /** The newest code SMS of a brand's accounts (operators). */
  async recentSms(q: Q, brand: string, limit: number): Promise<CodeSmsRow[]> {
    return q
      .selectFrom('code_sms as s')
      .innerJoin('code_locks as l', 'l.id', 's.lock_id')
      .select(smsCols)
      .where('l.brand', '=', brand)
      .orderBy('s.id', 'desc')
      .limit(limit)
      .execute();
  },

  async smsBySmsId(q: Q, smsId: string): Promise<CodeSmsRow | null> {
    return (
      (await q
        .selectFrom('code_sms as s')
        .select(smsCols)
        .where('s.sms_id', '=', smsId)
        .executeTakeFirst()) ?? null
    );
  },

  /** Adds numbers to a supplier's pool; numbers already there are left as they are. Returns how many were added. */
  async addToPool(
    q: Q,
    rows: { phone: string; country: string; telCode: string; supplier: string; apps: string }[],
  ): Promise<number> {
    if (!rows.length) return 0;
    const res = await q
      .insertInto('code_pool')
      .values(
        rows.map((r) => ({
          phone: r.phone,
          country: r.country,
          tel_code: r.telCode,
          supplier: r.supplier,
          apps: r.apps,
        })),
      )
      .onConflict((oc) => oc.column('phone').doNothing())
      .returning('phone')
      .execute();
    return res.length;
  },
};
