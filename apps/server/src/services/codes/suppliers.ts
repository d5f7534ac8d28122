import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import type { Clock } from '../../lib/clock';
import { DAY_MS } from '../../lib/dates';
import { idemKey } from '../../lib/idem';
import {
  CodeSupplyError,
  type Acquired,
  type CodeSupplyPort,
  type QuotedFee,
  type SupplyErrorKind,
} from '../../providers/codes/port';
import { aboveLimit } from '../../providers/codes/price';
import { codeSuppliersRepo } from '../../repositories/codeSuppliers';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** Tell a supplier again that an activation ended (it refused for now: EARLY_CANCEL_DENIED, or was down). */
    'codes.supplierFinish': {
      supplier: string;
      ref: string;
      outcome: 'done' | 'cancel' | 'ban';
      attempt: number;
    };
    /** Daily: drop supplier refusals older than a month. */
    'codes.supplierEventsPrune': Record<string, never>;
  }
}

/** One supplier answer, for metrics (`numa_code_supplier_answers_total{supplier,operation,outcome,reason}`). */
export interface SupplierAnswer {
  supplier: string;
  operation: 'acquire' | 'locked' | 'poll' | 'finish' | 'prices';
  outcome: 'ok' | SupplyErrorKind;
  reason: string;
}
/** Where the metrics counter hangs (the metrics module wires it; a no-op by default). */
export type SupplierAnswerHook = (a: SupplierAnswer) => void;

export interface SupplierSetOptions {
  /** How long an account-level refusal (no balance, bad key, blocked) skips a supplier (ms). */
  pauseMs: number;
  /** Asking a supplier again that an activation ended: at most this many tries. */
  finishAttempts: number;
  /** …this long apart when it was down (ms). */
  finishRetryMs: number;
}

/** A supplier set: the port the codes service talks to, plus what the operator's commands need. */
export interface SupplierSet extends CodeSupplyPort {
  readonly members: readonly CodeSupplyPort[];
  /** The order suppliers are asked for an app in a country (routes, then the configured order; paused ones left out). */
  order(app: string, country: string): Promise<{ names: string[]; paused: string[] }>;
}

/**
 * The code suppliers behind one port (issue 25 §3): a number is bought from the first supplier of the
 * app's and country's order that has one at or below the user's quote, then the next; every other
 * call goes to the supplier that sold the lock's number (its name is on the lock). Every refusal is
 * recorded for the operator (`codes supplier-status`) with the supplier's own word for it and what to
 * do; an account-level refusal pauses the supplier for a while; a number sold above the limit sent is
 * given back at once. The lock, code and charge rules are the codes service's, whichever supplier
 * served: this only decides where numbers come from.
 */
export function createSupplierSet(deps: {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  log: FastifyBaseLogger;
  suppliers: CodeSupplyPort[];
  onAnswer?: SupplierAnswerHook;
  options?: Partial<SupplierSetOptions>;
}): SupplierSet {
  const { db, jobs, clock, log, suppliers } = deps;
  const opts: SupplierSetOptions = {
    pauseMs: 5 * 60_000,
    finishAttempts: 6,
    finishRetryMs: 60_000,
    ...deps.options,
  };
  const byName = new Map(suppliers.map((s) => [s.name, s]));
  const onAnswer = deps.onAnswer ?? (() => {});
  /** Successes are written at most once a minute per supplier and operation (polls are frequent). */
  const lastOkWrite = new Map<string, number>();

  const member = (name: string | undefined): CodeSupplyPort => {
    const s = name ? byName.get(name) : suppliers.length === 1 ? suppliers[0] : undefined;
    if (!s)
      throw new CodeSupplyError('config', `no supplier named ${name ?? '(none)'} is configured`, undefined, {
        reason: 'NOT_CONFIGURED',
        action:
          'configure the supplier again (CODE_SUPPLIER / CODE_SUPPLIER_FAILOVER) until its locks have ended',
      });
    return s;
  };

  async function ok(supplier: string, operation: SupplierAnswer['operation']) {
    onAnswer({ supplier, operation, outcome: 'ok', reason: 'ok' });
    const key = `${supplier}:${operation}`;
    const t = clock.now();
    if (operation !== 'acquire' && t - (lastOkWrite.get(key) ?? 0) < 60_000) return;
    lastOkWrite.set(key, t);
    await codeSuppliersRepo
      .recordOk(db.q, { supplier, at: new Date(t) })
      .catch((err: unknown) => log.warn({ err }, 'a supplier success was not recorded'));
  }

  async function failed(
    supplier: string,
    operation: SupplierAnswer['operation'],
    err: unknown,
    where: { app?: string; country?: string } = {},
  ): Promise<CodeSupplyError> {
    const e =
      err instanceof CodeSupplyError
        ? err
        : new CodeSupplyError('unavailable', (err as Error)?.message ?? String(err), undefined, {
            reason: 'ERROR',
          });
    onAnswer({ supplier, operation, outcome: e.kind, reason: e.reason });
    const t = clock.now();
    const pauseUntil = e.accountLevel ? Math.max(e.pauseUntil ?? 0, t + opts.pauseMs) : null;
    const level = e.temporary ? 'info' : 'warn';
    log[level](
      { supplier, operation, kind: e.kind, reason: e.reason, answer: e.answer, action: e.action, ...where },
      `code supplier ${supplier}: ${e.message}`,
    );
    await codeSuppliersRepo
      .recordFailure(db.q, {
        supplier,
        at: new Date(t),
        operation,
        kind: e.kind,
        reason: e.reason,
        answer: e.answer ?? null,
        action: e.action ?? null,
        app: where.app ?? null,
        country: where.country ?? null,
        pauseUntil: pauseUntil ? new Date(pauseUntil) : null,
      })
      .catch((dbErr: unknown) => log.warn({ err: dbErr }, 'a supplier refusal was not recorded'));
    return e;
  }

  /** Tells a supplier an activation ended; asks again later through the jobs queue when it says so, or was down. */
  async function finish(supplier: string, ref: string, outcome: 'done' | 'cancel' | 'ban', attempt: number) {
    let again: number | null = null;
    try {
      const res = await member(supplier).finished({ ref, outcome, supplier });
      if (res && res.retryAfterMs > 0) again = res.retryAfterMs;
      else await ok(supplier, 'finish');
    } catch (err) {
      const e = await failed(supplier, 'finish', err);
      if (e.kind === 'unavailable') again = opts.finishRetryMs;
    }
    if (again === null) return;
    if (attempt >= opts.finishAttempts) {
      log.warn(
        { supplier, ref, outcome },
        'a supplier kept refusing to end an activation; it ends it itself when its time is up',
      );
      return;
    }
    await jobs.enqueue(
      db.q,
      'codes.supplierFinish',
      { supplier, ref, outcome, attempt: attempt + 1 },
      { runAt: clock.now() + again, dedupeKey: idemKey('code-supplier-finish', supplier, ref, attempt + 1) },
    );
  }

  jobs.define(
    'codes.supplierFinish',
    async ({ supplier, ref, outcome, attempt }) => {
      await finish(supplier, ref, outcome, attempt);
    },
    { maxAttempts: 3 },
  );
  jobs.define(
    'codes.supplierEventsPrune',
    async () => {
      await codeSuppliersRepo.pruneEvents(db.q, new Date(clock.now() - 31 * DAY_MS));
    },
    { maxAttempts: 2 },
  );
  jobs.schedule('codes.supplierEventsPrune', { everyMs: DAY_MS, offsetMs: 4 * 3_600_000 }, {});

  const set: SupplierSet = {
    name: suppliers.map((s) => s.name).join('+'),
    handsOutNumbers: true,
    members: suppliers,
    pollEveryMs: Math.min(...suppliers.map((s) => s.pollEveryMs ?? 5000)),

    serves: (name) => byName.has(name),

    async order(app, country) {
      const [routes, paused] = await Promise.all([
        codeSuppliersRepo.routesFor(db.q, app, country),
        codeSuppliersRepo.paused(db.q, new Date(clock.now())),
      ]);
      const listed = routes[0] ? routes[0].suppliers.split(',') : suppliers.map((s) => s.name);
      const known = listed.filter((n, i) => byName.has(n) && listed.indexOf(n) === i);
      return { names: known.filter((n) => !paused.has(n)), paused: known.filter((n) => paused.has(n)) };
    },

    async acquire(p: { app: string; country: string; fee?: QuotedFee }): Promise<Acquired> {
      const { names, paused } = await set.order(p.app, p.country);
      const where = { app: p.app, country: p.country };
      const refusals: CodeSupplyError[] = [];
      for (const name of names) {
        let got: Acquired;
        try {
          got = await member(name).acquire!(p);
        } catch (err) {
          refusals.push(await failed(name, 'acquire', err, where));
          continue;
        }
        if (got.cost !== undefined && got.maxPrice !== undefined && aboveLimit(got.cost, got.maxPrice)) {
          // sold above the limit sent: never kept; given back at once (asked again later if refused now)
          refusals.push(
            await failed(
              name,
              'acquire',
              new CodeSupplyError(
                'price',
                `sold at ${got.cost}, above the limit ${got.maxPrice}`,
                undefined,
                {
                  reason: 'ABOVE_LIMIT',
                },
              ),
              where,
            ),
          );
          await finish(name, got.ref, 'cancel', 1);
          continue;
        }
        await ok(name, 'acquire');
        return { ...got, supplier: name };
      }
      const summary = [
        ...refusals.map((e) => e.message),
        ...paused.map((n) => `${n}: paused after a refusal`),
      ].join('; ');
      const temporary = refusals.some((e) => e.kind === 'no_numbers' || e.kind === 'price');
      throw new CodeSupplyError(
        temporary || !refusals.length ? 'no_numbers' : refusals[0]!.kind,
        summary || `no supplier for ${p.app} in ${p.country}`,
        undefined,
        { reason: 'ALL_SUPPLIERS' },
      );
    },

    async locked(p) {
      const name = p.supplier ?? suppliers[0]!.name;
      try {
        const res = await member(name).locked(p);
        await ok(name, 'locked');
        return res;
      } catch (err) {
        throw await failed(name, 'locked', err, { app: p.app, country: p.country });
      }
    },

    async poll(ref, supplier) {
      const name = supplier ?? suppliers[0]!.name;
      const s = member(name);
      if (!s.poll) return { status: 'wait' as const };
      try {
        const res = await s.poll(ref, name);
        await ok(name, 'poll');
        return res;
      } catch (err) {
        throw await failed(name, 'poll', err);
      }
    },

    async prices(p) {
      const name = (await set.order(p.app, p.country)).names[0] ?? suppliers[0]!.name;
      return member(name).prices?.(p) ?? null;
    },

    async finished(p) {
      if (!p.ref) return;
      await finish(p.supplier ?? suppliers[0]!.name, p.ref, p.outcome, 1);
    },
  };
  return set;
}
