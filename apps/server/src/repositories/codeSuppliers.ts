import { sql } from 'kysely';
import type { Q } from '../db';

export interface SupplierStateRow {
  supplier: string;
  lastOkAt: Date | null;
  lastFailureAt: Date | null;
  lastKind: string | null;
  lastReason: string | null;
  lastAnswer: string | null;
  lastAction: string | null;
  consecutiveFailures: number;
  okCount: number;
  failureCount: number;
  pausedUntil: Date | null;
}

export interface SupplierEventRow {
  id: number;
  supplier: string;
  at: Date;
  operation: string;
  kind: string;
  reason: string;
  answer: string | null;
  action: string | null;
  app: string | null;
  country: string | null;
}

export interface SupplierRouteRow {
  app: string;
  country: string;
  suppliers: string;
  updatedAt: Date;
}

/** Code suppliers: their order per app and country, their state and recent refusals (migration 101). */
export const codeSuppliersRepo = {
  /**
   * The routes that apply to an app in a country, most specific first: (app, country), (app, *),
   * (*, country), (*, *).
   */
  async routesFor(q: Q, app: string, country: string): Promise<SupplierRouteRow[]> {
    const rows = await q
      .selectFrom('code_supplier_routes')
      .select(['app', 'country', 'suppliers', 'updated_at as updatedAt'])
      .where('app', 'in', [app, '*'])
      .where('country', 'in', [country, '*'])
      .execute();
    const rank = (r: { app: string; country: string }) =>
      (r.app === '*' ? 2 : 0) + (r.country === '*' ? 1 : 0);
    return rows.sort((a, b) => rank(a) - rank(b));
  },

  routes: (q: Q): Promise<SupplierRouteRow[]> =>
    q
      .selectFrom('code_supplier_routes')
      .select(['app', 'country', 'suppliers', 'updated_at as updatedAt'])
      .orderBy('app')
      .orderBy('country')
      .execute(),

  async setRoute(q: Q, p: { app: string; country: string; suppliers: string[]; now: Date }) {
    await q
      .insertInto('code_supplier_routes')
      .values({ app: p.app, country: p.country, suppliers: p.suppliers.join(','), updated_at: p.now })
      .onConflict((oc) =>
        oc.columns(['app', 'country']).doUpdateSet({ suppliers: p.suppliers.join(','), updated_at: p.now }),
      )
      .execute();
  },

  async clearRoute(q: Q, app: string, country: string): Promise<boolean> {
    const res = await q
      .deleteFrom('code_supplier_routes')
      .where('app', '=', app)
      .where('country', '=', country)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  /** Suppliers paused now (an account-level refusal), with until when. */
  async paused(q: Q, now: Date): Promise<Map<string, Date>> {
    const rows = await q
      .selectFrom('code_supplier_state')
      .select(['supplier', 'paused_until'])
      .where('paused_until', '>', now)
      .execute();
    return new Map(rows.map((r) => [r.supplier, r.paused_until!]));
  },

  async recordOk(q: Q, p: { supplier: string; at: Date }) {
    await q
      .insertInto('code_supplier_state')
      .values({ supplier: p.supplier, last_ok_at: p.at, ok_count: 1 })
      .onConflict((oc) =>
        oc.column('supplier').doUpdateSet({
          last_ok_at: p.at,
          consecutive_failures: 0,
          ok_count: sql<number>`code_supplier_state.ok_count + 1`,
        }),
      )
      .execute();
  },

  /** A refusal: one event, and the supplier's state (its pause extended, never shortened). */
  async recordFailure(
    q: Q,
    p: {
      supplier: string;
      at: Date;
      operation: string;
      kind: string;
      reason: string;
      answer: string | null;
      action: string | null;
      app: string | null;
      country: string | null;
      pauseUntil: Date | null;
    },
  ) {
    const last = {
      last_failure_at: p.at,
      last_kind: p.kind,
      last_reason: p.reason.slice(0, 200),
      last_answer: p.answer?.slice(0, 500) ?? null,
      last_action: p.action?.slice(0, 500) ?? null,
    };
    await q
      .insertInto('code_supplier_state')
      .values({
        supplier: p.supplier,
        ...last,
        consecutive_failures: 1,
        failure_count: 1,
        paused_until: p.pauseUntil,
      })
      .onConflict((oc) =>
        oc.column('supplier').doUpdateSet({
          ...last,
          consecutive_failures: sql<number>`code_supplier_state.consecutive_failures + 1`,
          failure_count: sql<number>`code_supplier_state.failure_count + 1`,
          paused_until: p.pauseUntil
            ? sql<Date>`greatest(code_supplier_state.paused_until, ${p.pauseUntil})`
            : sql<Date | null>`code_supplier_state.paused_until`,
        }),
      )
      .execute();
    await q
      .insertInto('code_supplier_events')
      .values({
        supplier: p.supplier,
        at: p.at,
        operation: p.operation,
        kind: p.kind,
        reason: last.last_reason,
        answer: last.last_answer,
        action: last.last_action,
        app: p.app,
        country: p.country,
      })
      .execute();
  },

  async resume(q: Q, supplier: string): Promise<boolean> {
    const res = await q
      .updateTable('code_supplier_state')
      .set({ paused_until: null })
      .where('supplier', '=', supplier)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  states: (q: Q): Promise<SupplierStateRow[]> =>
    q
      .selectFrom('code_supplier_state')
      .select([
        'supplier',
        'last_ok_at as lastOkAt',
        'last_failure_at as lastFailureAt',
        'last_kind as lastKind',
        'last_reason as lastReason',
        'last_answer as lastAnswer',
        'last_action as lastAction',
        'consecutive_failures as consecutiveFailures',
        'ok_count as okCount',
        'failure_count as failureCount',
        'paused_until as pausedUntil',
      ])
      .orderBy('supplier')
      .execute(),

  /** The newest refusals, newest first. */
  recentEvents: (q: Q, limit: number): Promise<SupplierEventRow[]> =>
    q.selectFrom('code_supplier_events').selectAll().orderBy('id', 'desc').limit(limit).execute(),

  async pruneEvents(q: Q, before: Date): Promise<number> {
    const res = await q.deleteFrom('code_supplier_events').where('at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
