import type { Lang } from '@numa/contract';
import { idemKey } from '../../lib/idem';
import { CodeSupplyError } from '../../providers/codes/port';
import { codesRepo, type LockRow } from '../../repositories/codes';
import type { CodesContext, InboundCodeSms, ReceiveResult } from './context';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** The simulator's app sends its code to a locked number. */
    'codes.simSend': { lockId: number; sender: string; text: string };
    /** A real supplier is asked what a live lock's activation received (the n-th time). */
    'codes.supplierPoll': { lockId: number; n: number };
  }
}

/**
 * A lock's supplier: told when a number is locked (the simulator's app then sends its code, a real
 * supplier starts an activation), and a real supplier's activation polled through the jobs queue
 * while the lock lives; what it brings goes to `receive`.
 */
export function createSupplierLink(
  ctx: CodesContext,
  receive: (m: InboundCodeSms) => Promise<ReceiveResult>,
) {
  const { db, jobs, clock, supply, log } = ctx.deps;
  const { ours, endLock } = ctx;

  /** Tells the lock's supplier (our carrier numbers have none): the simulator's app sends, a real supplier is asked for another SMS. */
  async function announce(row: LockRow, lang: Lang) {
    if (!ours(row.supplier)) return;
    const previousRef = supply.handsOutNumbers
      ? await codesRepo.lastSupplierRef(db.q, row.accountId, row.phone, row.app, row.id)
      : null;
    const res = await supply.locked({
      lockId: row.id,
      phone: row.phone,
      app: row.app,
      country: row.country,
      lang: lang === 'zh' ? 'zh' : 'en',
      previousRef,
      supplier: row.supplier,
    });
    if (res.send) {
      await jobs.enqueue(
        db.q,
        'codes.simSend',
        { lockId: row.id, sender: res.send.sender, text: res.send.text },
        { runAt: clock.now() + res.send.afterMs, dedupeKey: idemKey('code-sim', row.id) },
      );
    }
    if (res.ref) await started(row, res.ref);
  }

  /** A real supplier's activation backs the lock: keep its id and poll it through the jobs queue while the lock lives. */
  async function started(row: LockRow, ref: string) {
    await codesRepo.setSupplierRef(db.q, row.id, ref);
    row.supplierRef = ref;
    if (supply.poll)
      await jobs.enqueue(
        db.q,
        'codes.supplierPoll',
        { lockId: row.id, n: 1 },
        { runAt: clock.now() + (supply.pollEveryMs ?? 5000), dedupeKey: idemKey('code-poll', row.id, 1) },
      );
  }

  jobs.define(
    'codes.supplierPoll',
    async ({ lockId, n }) => {
      const lock = await codesRepo.lockById(db.q, lockId);
      const t = clock.now();
      if (!lock || lock.endedAt || lock.expiresAt.getTime() <= t || !lock.supplierRef) return;
      if (!ours(lock.supplier) || !supply.poll) return;
      try {
        const got = await supply.poll(lock.supplierRef, lock.supplier);
        if (got.status === 'cancelled') {
          await endLock(lockId, 'released');
          return;
        }
        if (got.status === 'code')
          await receive({
            source: lock.supplier,
            // one SMS per activation and code: the same answer polled twice is one SMS
            messageId: `${lock.supplierRef}:${got.code}`,
            phone: lock.phone,
            app: lock.app,
            text: got.text,
          });
      } catch (err) {
        // a refusal that waiting does not cure (the key, the account, our request): the lock ends
        // now, with nothing charged, rather than poll a dead activation until it expires
        if (err instanceof CodeSupplyError && !err.temporary) {
          log.warn({ err, lockId }, 'the code supplier refused to tell what the activation received');
          await endLock(lockId, 'released');
          return;
        }
        // the supplier did not answer this time: the next poll asks again
        log.warn({ err, lockId }, 'polling the code supplier failed');
      }
      const next = t + (supply.pollEveryMs ?? 5000);
      if (next < lock.expiresAt.getTime())
        await jobs.enqueue(
          db.q,
          'codes.supplierPoll',
          { lockId, n: n + 1 },
          { runAt: next, dedupeKey: idemKey('code-poll', lockId, n + 1) },
        );
    },
    { maxAttempts: 3 },
  );
  jobs.define(
    'codes.simSend',
    async ({ lockId, sender, text }) => {
      const lock = await codesRepo.lockById(db.q, lockId);
      if (!lock || lock.endedAt) return; // given back before the app sent
      await receive({
        source: 'simulator',
        messageId: `lock-${lockId}`,
        phone: lock.phone,
        app: lock.app,
        sender,
        text,
      });
    },
    { maxAttempts: 5 },
  );

  return { announce, started };
}
