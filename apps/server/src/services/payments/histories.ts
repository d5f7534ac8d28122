import {
  billTypeLabel,
  fromMinor,
  type BillItem,
  type Lang,
  type PaymentHistoryItem,
  type SmsRecord,
} from '@numa/contract';
import { monthRange } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { jsonObject } from '../../lib/jsonText';
import { historyRepo } from '../../repositories/payments';
import type { PaymentContext } from './context';

/** The account's histories by month: payments (with their refunds and disputes), bills (also as CSV) and SMS. */
export function createPaymentHistories(ctx: PaymentContext) {
  const { db } = ctx;

  return {
    /** A page of the month's payment history (JSON text built by the database, `historyRepo.payments`). */
    async paymentList(accountId: number, ym: string, pageNo: number, pageSize: number) {
      const { from, to } = monthRange(ym);
      const { list, total } = await historyRepo.payments(
        db.q,
        accountId,
        from,
        to,
        pageSize,
        (pageNo - 1) * pageSize,
      );
      return jsonObject<{ totalRows: number; paymentList: PaymentHistoryItem[] }>({
        totalRows: String(total),
        paymentList: list,
      });
    },

    /** A page of the month's bills (JSON text built by the database, `historyRepo.billPage`). */
    async billList(accountId: number, ym: string, nextPage: string | undefined, pageSize: number) {
      const { from, to } = monthRange(ym);
      const before = nextPage && /^\d{1,18}$/.test(nextPage) ? Number(nextPage) : null;
      if (nextPage && before === null) throw new ApiError(100001, null, 'nextPage');
      const page = await historyRepo.billPage(db.q, { accountId, from, to, before, pageSize });
      return jsonObject<{ list: BillItem[]; nextPage: string | null }>({
        list: page.list,
        nextPage: JSON.stringify(page.nextPage),
      });
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

    /** A page of the month's SMS and MMS (JSON text built by the database, `historyRepo.messages`). */
    async smsList(accountId: number, ym: string, pageNo: number, pageSize: number) {
      const { from, to } = monthRange(ym);
      const { list, total } = await historyRepo.messages(
        db.q,
        accountId,
        from,
        to,
        pageSize,
        (pageNo - 1) * pageSize,
      );
      return jsonObject<{ totalRows: number; smsList: SmsRecord[] }>({
        totalRows: String(total),
        smsList: list,
      });
    },
  };
}

const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;
