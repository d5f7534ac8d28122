import { randomBytes } from 'node:crypto';
import { constants, negMinor, type Lang, type Minor } from '@numa/contract';
import { isApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import { monthRange, DAY_MS } from '../../lib/dates';
import type { InboundMessage } from '../../providers/carrier/port';
import { codesRepo, type CodeSmsRow, type LockRow } from '../../repositories/codes';
import { ledger } from '../../repositories/ledger';
import { carrierPool, type CodesContext, type InboundCodeSms, type ReceiveResult } from './context';
import { detectApp, extractCode } from './parse';

/**
 * Receiving codes (spec 001 §4 Receive-code flow): a code SMS on a locked number, from a supplier,
 * the simulator or the carrier, stored and charged once with its bill (bill type 6); the number stays
 * the account's for a month after its first paid code. Also the month pages of a number's code SMS.
 */
export function createReceiving(ctx: CodesContext) {
  const { db, realtime, log } = ctx.deps;
  const { now, smsItem } = ctx;
  const receiving = {
    /**
     * A code SMS arrived for a locked number (a supplier, the simulator, the carrier): stored once per
     * source message id and charged once, with its bill, in one transaction. No live lock for its app:
     * nothing is stored or charged ('unmatched').
     */
    async receive(m: InboundCodeSms): Promise<ReceiveResult> {
      const sourceKey = `${m.source}:${m.messageId}`.slice(0, 200);
      const seen = await codesRepo.smsBySource(db.q, sourceKey);
      if (seen) return { status: 'duplicate', smsId: seen.smsId };
      const t = now();
      const result = await db.tx(
        async (tx): Promise<{ row: CodeSmsRow; lock: LockRow } | { dup: string } | null> => {
          const locks = await codesRepo.liveLocksOn(tx, m.phone, t);
          if (!locks.length) return null;
          const app = m.app ?? detectApp(m.text, m.sender);
          const lock =
            (app ? locks.find((l) => l.app === app) : undefined) ??
            (locks.length === 1 && !m.app ? locks[0] : undefined);
          if (!lock) return null;
          let ledgerId: number | null = null;
          let charge = 0 as Minor;
          try {
            const bill = await ledger.apply(tx, {
              accountId: lock.accountId,
              type: constants.billTypes.codeReceive,
              charge: negMinor(lock.fee),
              options: { number: lock.phone, app: lock.app, countryCode: lock.country },
              idempotencyKey: idemKey('code', sourceKey),
            });
            if (!bill.applied) {
              const first = await codesRepo.smsBySource(tx, sourceKey);
              return { dup: first?.smsId ?? '' };
            }
            ledgerId = bill.row.id;
            charge = lock.fee;
          } catch (err) {
            // the balance was spent since the lock: the code is kept but withheld, and not charged
            if (!(isApiError(err) && err.retcode === 400001)) throw err;
          }
          const row = await codesRepo.insertSms(tx, {
            smsId: `code:${randomBytes(9).toString('base64url')}`,
            sourceKey,
            lockId: lock.id,
            accountId: lock.accountId,
            phone: lock.phone,
            app: lock.app,
            sender: (m.sender ?? '').slice(0, 64),
            text: m.text,
            code: extractCode(m.text),
            charge,
            ledgerId,
            receivedAt: t,
          });
          if (!row) {
            // a concurrent delivery of the same message stored it first (its bill is the one kept)
            const first = await codesRepo.smsBySource(tx, sourceKey);
            return { dup: first?.smsId ?? '' };
          }
          if (ledgerId !== null) {
            await codesRepo.claimNumber(tx, {
              phone: lock.phone,
              app: lock.app,
              accountId: lock.accountId,
              country: lock.country,
              now: t,
              validUntil: new Date(t.getTime() + constants.codes.numberValidityDays * DAY_MS),
            });
          }
          return { row, lock };
        },
      );
      if (!result) {
        ctx.deps.metrics?.codeSms('unmatched');
        log.info({ phone: m.phone, source: m.source }, 'a code SMS for a number nobody has locked: dropped');
        return { status: 'unmatched' };
      }
      if ('dup' in result) return { status: 'duplicate', smsId: result.dup };
      const { row } = result;
      ctx.deps.metrics?.codeSms(row.ledgerId === null ? 'unpaid' : 'charged');
      realtime.emitCodeSms(row.accountId, (lang) => ({
        app: row.app,
        number: row.phone,
        sms: smsItem(row, lang),
      }));
      return {
        status: row.ledgerId === null ? 'unpaid' : 'charged',
        smsId: row.smsId,
        accountId: row.accountId,
        charge: row.charge,
      };
    },

    /**
     * The carrier brought an SMS to one of the pool's numbers (our own numbers; the carrier's inbound
     * side asks here before the chats): a code SMS for the number's live lock, stored and charged once
     * per carrier message id, so a webhook the carrier repeats charges nothing more. null: not a pool
     * number (the chats take it).
     */
    async carrierInbound(m: InboundMessage): Promise<{ delivered: boolean } | null> {
      const to = m.to.replace(/\D/g, '');
      if (!(await codesRepo.poolNumber(db.q, to))) return null;
      const res = await receiving.receive({
        source: carrierPool,
        messageId: m.carrierId,
        phone: to,
        sender: m.from,
        text: m.text,
      });
      return { delivered: res.status !== 'unmatched' };
    },

    /** getCodeSmsList: a month of the code SMS of one of the account's numbers, 20 a page. */
    async smsHistory(p: {
      accountId: number;
      app: string;
      number: string;
      ym: string;
      pageSize: number;
      nextPage?: string | undefined;
      lang: Lang;
    }) {
      const { from, to } = monthRange(p.ym);
      const before = p.nextPage && /^\d+$/.test(p.nextPage) ? Number(p.nextPage) : null;
      const rows = await codesRepo.smsPage(db.q, {
        accountId: p.accountId,
        phone: p.number,
        app: p.app,
        from,
        to,
        before,
        limit: p.pageSize + 1,
      });
      const page = rows.slice(0, p.pageSize);
      return {
        smsList: page.map((r) => smsItem(r, p.lang)),
        nextPage: rows.length > p.pageSize ? String(page[page.length - 1]!.id) : null,
      };
    },

    /** Dev route: a text sent to a locked number as if by the app (`POST /dev/code-sms`). */
    async devSend(p: { number: string; app: string; text: string; sender?: string }) {
      return receiving.receive({
        source: 'dev',
        messageId: randomBytes(9).toString('base64url'),
        phone: p.number,
        app: p.app,
        text: p.text,
        ...(p.sender ? { sender: p.sender } : {}),
      });
    },
  };
  return receiving;
}
