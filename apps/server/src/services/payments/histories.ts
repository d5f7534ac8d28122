import {
  BillOptions,
  billTypeLabel,
  constants,
  fromMinor,
  minor,
  type BillItem,
  type Lang,
  type PaymentHistoryItem,
  type SmsRecord,
} from '@numa/contract';
import { monthRange } from '../../lib/calendar';
import { ApiError } from '../../lib/errors';
import { historyRepo } from '../../repositories/payments';
import type { PaymentContext } from './context';

const isPurchaseMethod = (m: unknown): m is PaymentHistoryItem['method'] =>
  (constants.purchaseMethods as readonly unknown[]).includes(m);

/** The account's histories by month: payments (with their refunds and disputes), bills (also as CSV) and SMS. */
export function createPaymentHistories(ctx: PaymentContext) {
  const { db, returns } = ctx;

  return {
    async paymentList(accountId: number, ym: string, pageNo: number, pageSize: number) {
      const { from, to } = monthRange(ym);
      const t = constants.billTypes;
      const { rows, total } = await historyRepo.payments(
        db.q,
        accountId,
        from,
        to,
        pageSize,
        (pageNo - 1) * pageSize,
      );
      // how each top-up stands after its refunds and disputes
      const orderIds = rows.flatMap((r) => {
        const id = Number((r.options as { orderId?: string }).orderId);
        return r.type === t.recharge && Number.isSafeInteger(id) ? [id] : [];
      });
      const back = new Map<string, { refunded: number; dispute?: 'open' | 'won' | 'lost' }>();
      for (const x of await returns.ofOrders(orderIds)) {
        const b = back.get(String(x.orderId)) ?? { refunded: 0 };
        if (x.kind === 'refund' && x.debitBill !== null && x.reversalBill === null) b.refunded += x.amount;
        if (x.kind === 'dispute')
          b.dispute = x.status === 'won' ? 'won' : x.status === 'lost' ? 'lost' : 'open';
        back.set(String(x.orderId), b);
      }
      const paymentList: PaymentHistoryItem[] = rows.map((r) => {
        const o = r.options as { amount?: number; gift?: number; purchaseMethod?: string; orderId?: string };
        const recharge = r.type === t.recharge;
        const b = recharge && o.orderId ? back.get(o.orderId) : undefined;
        return {
          ...(b?.refunded ? { refunded: fromMinor(minor(b.refunded)) } : {}),
          ...(b?.dispute ? { dispute: b.dispute } : {}),
          _id: String(r.id),
          method:
            recharge && isPurchaseMethod(o.purchaseMethod)
              ? o.purchaseMethod
              : recharge
                ? 'creditCard'
                : 'invite',
          amount: recharge ? (o.amount ?? fromMinor(r.charge)) : fromMinor(r.charge),
          gifts: recharge ? (o.gift ?? 0) : 0,
          date: r.createdAt.getTime(),
        };
      });
      return { totalRows: total, paymentList };
    },

    async billList(accountId: number, ym: string, nextPage: string | undefined, pageSize: number) {
      const { from, to } = monthRange(ym);
      const before = nextPage && /^\d{1,18}$/.test(nextPage) ? Number(nextPage) : null;
      if (nextPage && before === null) throw new ApiError(100001, null, 'nextPage');
      const rows = await historyRepo.bills(db.q, accountId, from, to, before, pageSize);
      const list: BillItem[] = rows.map((r) => ({
        _id: String(r.id),
        type: r.type as BillItem['type'],
        charge: fromMinor(r.charge),
        beforeBalance: fromMinor(r.beforeBalance),
        afterBalance: fromMinor(r.afterBalance),
        date: r.createdAt.getTime(),
        options: billOptions(r.options),
      }));
      return { list, nextPage: rows.length === pageSize ? String(rows[rows.length - 1]!.id) : null };
    },

    /** A month of bills as CSV (every row; beyond the spec: users expense them), types named in `lang`. */
    async billCsv(accountId: number, ym: string, lang: Lang = 'en'): Promise<string> {
      const { from, to } = monthRange(ym);
      const lines = ['id,date_utc,type,charge,before_balance,after_balance,details'];
      let before: number | null = null;
      for (;;) {
        const rows = await historyRepo.bills(db.q, accountId, from, to, before, 1000);
        for (const r of rows) {
          const details = JSON.stringify(r.options ?? {});
          lines.push(
            [
              r.id,
              r.createdAt.toISOString(),
              csvCell(billTypeLabel(r.type, lang)),
              fromMinor(r.charge),
              fromMinor(r.beforeBalance),
              fromMinor(r.afterBalance),
              csvCell(details),
            ].join(','),
          );
        }
        if (rows.length < 1000) break;
        before = rows[rows.length - 1]!.id;
      }
      return `${lines.join('\r\n')}\r\n`;
    },

    async smsList(accountId: number, ym: string, pageNo: number, pageSize: number) {
      const { from, to } = monthRange(ym);
      const { rows, total } = await historyRepo.messages(
        db.q,
        accountId,
        from,
        to,
        pageSize,
        (pageNo - 1) * pageSize,
      );
      const smsList: SmsRecord[] = rows.map((r) => ({
        _id: String(r.id),
        direction: r.direction,
        toNumber: r.direction === 'out' ? r.other : r.own,
        fromNumber: r.direction === 'out' ? r.own : r.other,
        date: Number(r.date),
        charge: fromMinor(r.charge),
        type: r.type,
        text: r.text,
      }));
      return { totalRows: total, smsList };
    },
  };
}

/** The contract's bill options (BillOptions), read from its schema rather than copied here. */
const billOptionKeys = new Set(Object.keys(BillOptions.shape));
/** A bill's options as the contract has them (keys other areas keep for themselves stay out). */
function billOptions(o: Record<string, unknown>): BillItem['options'] {
  return Object.fromEntries(
    Object.entries(o ?? {}).filter(([k]) => billOptionKeys.has(k)),
  ) as BillItem['options'];
}

const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;
