import type { Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';

export interface EndpointRow {
  id: number;
  accountId: number;
  url: string;
  description: string;
  events: string;
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  balanceThreshold: Minor | null;
  balanceLow: boolean;
  createdAt: Date;
}

export interface DeliveryRow {
  id: number;
  endpointId: number;
  accountId: number;
  msgId: string;
  eventType: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const endpointCols = [
  'e.id',
  'e.account_id as accountId',
  'e.url',
  'e.description',
  'e.events',
  'e.secret',
  'e.enabled',
  'e.disabled_reason as disabledReason',
  'e.failing_since as failingSince',
  'e.balance_threshold as balanceThreshold',
  'e.balance_low as balanceLow',
  'e.created_at as createdAt',
] as const;

const deliveryCols = [
  'd.id',
  'd.endpoint_id as endpointId',
  'd.account_id as accountId',
  'd.msg_id as msgId',
  'd.event_type as eventType',
  'd.payload',
  'd.status',
  'd.attempts',
  'd.last_status as lastStatus',
  'd.last_error as lastError',
  'd.next_attempt_at as nextAttemptAt',
  'd.created_at as createdAt',
  'd.delivered_at as deliveredAt',
] as const;

const unqualified = <T extends readonly string[]>(c: T) =>
  c.map((x) => x.slice(2)) as unknown as { [K in keyof T]: T[K] extends `${string}.${infer R}` ? R : T[K] };

/** Migration 110's webhook_endpoints and webhook_deliveries (issue 21). */
export const webhooksRepo = {
  async insertEndpoint(
    q: Q,
    e: {
      accountId: number;
      url: string;
      description: string;
      events: string;
      secret: string;
      balanceThreshold: Minor | null;
    },
  ): Promise<EndpointRow> {
    return q
      .insertInto('webhook_endpoints')
      .values({
        account_id: e.accountId,
        url: e.url,
        description: e.description,
        events: e.events,
        secret: e.secret,
        balance_threshold: e.balanceThreshold,
      })
      .returning(unqualified(endpointCols))
      .executeTakeFirstOrThrow();
  },

  async countEndpoints(q: Q, accountId: number): Promise<number> {
    const row = await q
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async endpointsOf(q: Q, accountId: number): Promise<EndpointRow[]> {
    return q
      .selectFrom('webhook_endpoints as e')
      .select(endpointCols)
      .where('e.account_id', '=', accountId)
      .orderBy('e.id')
      .execute();
  },

  async endpoint(q: Q, accountId: number, id: number): Promise<EndpointRow | null> {
    return (
      (await q
        .selectFrom('webhook_endpoints as e')
        .select(endpointCols)
        .where('e.id', '=', id)
        .where('e.account_id', '=', accountId)
        .executeTakeFirst()) ?? null
    );
  },

  async updateEndpoint(
    q: Q,
    accountId: number,
    id: number,
    p: {
      url?: string;
      description?: string;
      events?: string;
      balanceThreshold?: Minor | null;
      enabled?: boolean;
    },
  ): Promise<EndpointRow | null> {
    return (
      (await q
        .updateTable('webhook_endpoints as e')
        .set({
          ...(p.url !== undefined ? { url: p.url } : {}),
          ...(p.description !== undefined ? { description: p.description } : {}),
          ...(p.events !== undefined ? { events: p.events } : {}),
          ...(p.balanceThreshold !== undefined
            ? { balance_threshold: p.balanceThreshold, balance_low: false }
            : {}),
          ...(p.enabled === true ? { enabled: true, disabled_reason: null, failing_since: null } : {}),
          ...(p.enabled === false ? { enabled: false, disabled_reason: 'owner' } : {}),
        })
        .where('e.id', '=', id)
        .where('e.account_id', '=', accountId)
        .returning(endpointCols)
        .executeTakeFirst()) ?? null
    );
  },

  async deleteEndpoint(q: Q, accountId: number, id: number): Promise<boolean> {
    const rows = await q
      .deleteFrom('webhook_endpoints')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returning('id')
      .execute();
    return rows.length > 0;
  },

  /** A delivery for an event, once per (endpoint, event): null when it was made before. */
  async insertDelivery(
    tx: Tx,
    d: { endpointId: number; accountId: number; msgId: string; eventType: string; payload: string },
  ): Promise<DeliveryRow | null> {
    return (
      ((await tx
        .insertInto('webhook_deliveries')
        .values({
          endpoint_id: d.endpointId,
          account_id: d.accountId,
          msg_id: d.msgId,
          event_type: d.eventType,
          payload: d.payload,
        })
        .onConflict((oc) => oc.columns(['endpoint_id', 'msg_id']).doNothing())
        .returning(unqualified(deliveryCols))
        .executeTakeFirst()) as DeliveryRow | undefined) ?? null
    );
  },

  async delivery(q: Q, id: number): Promise<(DeliveryRow & { endpoint: EndpointRow }) | null> {
    const d = await q
      .selectFrom('webhook_deliveries as d')
      .select(deliveryCols)
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!d) return null;
    const e = await q
      .selectFrom('webhook_endpoints as e')
      .select(endpointCols)
      .where('e.id', '=', d.endpointId)
      .executeTakeFirst();
    return e ? { ...(d as DeliveryRow), endpoint: e } : null;
  },

  async deliveriesOf(q: Q, endpointId: number, before: number | null, limit: number): Promise<DeliveryRow[]> {
    let query = q
      .selectFrom('webhook_deliveries as d')
      .select(deliveryCols)
      .where('d.endpoint_id', '=', endpointId);
    if (before !== null) query = query.where('d.id', '<', before);
    return (await query.orderBy('d.id', 'desc').limit(limit).execute()) as DeliveryRow[];
  },

  /** A try's outcome on the delivery (its status, when it succeeded or failed for good). */
  async recordTry(
    q: Q,
    id: number,
    t: {
      attempts: number;
      status: 'pending' | 'succeeded' | 'failed';
      lastStatus: number | null;
      lastError: string | null;
      nextAttemptAt: Date | null;
      deliveredAt?: Date | null;
    },
  ): Promise<DeliveryRow | null> {
    return (
      ((await q
        .updateTable('webhook_deliveries as d')
        .set({
          attempts: t.attempts,
          status: t.status,
          last_status: t.lastStatus,
          last_error: t.lastError,
          next_attempt_at: t.nextAttemptAt,
          ...(t.deliveredAt ? { delivered_at: t.deliveredAt } : {}),
        })
        .where('d.id', '=', id)
        .returning(deliveryCols)
        .executeTakeFirst()) as DeliveryRow | undefined) ?? null
    );
  },

  /** A delivery that never went (its endpoint went away or was switched off): failed, its tries as they were. */
  async giveUp(q: Q, id: number, reason: string): Promise<void> {
    await q
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: reason, next_attempt_at: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  },

  /** A success: the endpoint is not failing. */
  async endpointSucceeded(q: Q, id: number): Promise<void> {
    await q
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', '=', id)
      .where('failing_since', 'is not', null)
      .execute();
  },

  /**
   * A failure at `now`: the endpoint is failing since its first failure after the last success; once
   * that is `disableAfterMs` ago it is switched off and returned — once: only the statement that
   * switched it off returns it.
   */
  async endpointFailed(q: Q, id: number, now: Date, disableAfterMs: number): Promise<EndpointRow | null> {
    const row = await q
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql`coalesce(failing_since, ${now}::timestamptz)` })
      .where('id', '=', id)
      .returning(['failing_since as failingSince', 'enabled'])
      .executeTakeFirst();
    if (!row?.enabled || !row.failingSince || now.getTime() - row.failingSince.getTime() < disableAfterMs)
      return null;
    return (
      (await q
        .updateTable('webhook_endpoints as e')
        .set({ enabled: false, disabled_reason: 'failing' })
        .where('e.id', '=', id)
        .where('e.enabled', '=', true)
        .returning(endpointCols)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * balance.low: the endpoints of the account whose threshold the balance crossed downwards now
   * (marked low in the same statement, so one server fires once), and those it rose back over
   * (marked not low).
   */
  async balanceCrossed(q: Q, accountId: number, balance: Minor): Promise<EndpointRow[]> {
    await q
      .updateTable('webhook_endpoints')
      .set({ balance_low: false })
      .where('account_id', '=', accountId)
      .where('balance_low', '=', true)
      .where('balance_threshold', '<=', balance)
      .execute();
    return q
      .updateTable('webhook_endpoints as e')
      .set({ balance_low: true })
      .where('e.account_id', '=', accountId)
      .where('e.balance_low', '=', false)
      .where('e.enabled', '=', true)
      .where('e.balance_threshold', '>', balance)
      .where('e.events', 'like', '%balance.low%')
      .returning(endpointCols)
      .execute();
  },

  /** Deliveries older than `before` (a batch): the log keeps a month. */
  async purge(q: Q, before: Date, limit: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      WITH gone AS (
        DELETE FROM webhook_deliveries WHERE id IN (
          SELECT id FROM webhook_deliveries WHERE created_at < ${before} AND status <> 'pending' LIMIT ${limit}
        ) RETURNING 1
      ) SELECT count(*)::int AS n FROM gone`.execute(q);
    return rows[0]?.n ?? 0;
  },
};
