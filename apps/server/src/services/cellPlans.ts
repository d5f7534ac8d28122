import { randomBytes } from 'node:crypto';
import { addMinor, constants, fromMinor, mulMinor, negMinor, type BrandId, type Minor } from '@numa/contract';
import {
  cellValidityDays,
  type CellCardType,
  type CellLine,
  type CellOrder,
  type CellPlan,
  type CellValidityType,
} from '@numa/contract/cellPlans';
import type { Database } from '../db';
import type { Clock } from '../lib/clock';
import { DAY_MS } from '../lib/dates';
import { ApiError } from '../lib/errors';
import { idemKey } from '../lib/idem';
import { cellPlansRepo, type CellLineRow, type CellOrderRow } from '../repositories/cellPlans';
import { ledger } from '../repositories/ledger';
import type { Pricing } from './pricing';

const validityTypes = Object.values(constants.validityTypes) as CellValidityType[];

export interface CellOrderInput {
  planId: number;
  cardType: CellCardType;
  validityType: CellValidityType;
  planCount: number;
  lineId?: number | undefined;
  label?: string | undefined;
  email?: string | undefined;
  requestId: string;
}

/** A public order id: 'C', the time in base 36 and 6 random hex digits (unguessable enough to show). */
const newOrderNo = (now: number) =>
  `C${now.toString(36).toUpperCase()}${randomBytes(3).toString('hex').toUpperCase()}`;

const orderView = (o: CellOrderRow): CellOrder => ({
  orderId: o.orderNo,
  lineId: o.lineId,
  lineLabel: o.lineLabel,
  planId: o.planId,
  code: o.code,
  cardType: o.cardType as CellCardType,
  validityType: o.validityType as CellValidityType,
  planCount: o.planCount,
  days: o.days,
  amount: fromMinor(o.amount),
  contactPhone: o.contactPhone,
  contactEmail: o.contactEmail,
  periodStart: o.periodStart.getTime(),
  periodEnd: o.periodEnd.getTime(),
  date: o.createdAt.getTime(),
});

/**
 * The embedded plans page's rules (issue 11 item 7; contract api/cellPlans.ts): the catalogue priced
 * by `pricing` for the brand, orders charged through the ledger (one bill of type 50 each, idempotent
 * by the page's requestId), the account's lines and orders. Time comes from the app's clock.
 */
export function createCellPlanService({
  db,
  pricing,
  clock,
}: {
  db: Database;
  pricing: Pricing;
  clock: Clock;
}) {
  const lineView = (l: CellLineRow): CellLine => ({
    lineId: l.id,
    label: l.label,
    planId: l.planId,
    code: l.code,
    cardType: l.cardType as CellCardType,
    startDate: l.startsAt.getTime(),
    endDate: l.endsAt.getTime(),
    status: l.endsAt.getTime() > clock.now() ? 'active' : 'expired',
    orderCount: l.orderCount,
  });

  return {
    async catalogue(accountId: number, brand: BrandId) {
      const currency = pricing.currencyOf(brand);
      const [plans, kit, contact] = await Promise.all([
        cellPlansRepo.plans(db.q, currency),
        pricing.rate(brand, 'cell_sim', { country: 'US', variant: 'physical' }),
        cellPlansRepo.contact(db.q, accountId),
      ]);
      const planList: CellPlan[] = plans
        .map((p) => ({
          planId: p.id,
          code: p.code,
          dataGb: p.dataGb,
          unlimited: p.unlimited,
          hotspotGb: p.hotspotGb,
          intlCalls: p.intlCalls,
          prices: validityTypes.flatMap((vt) => {
            const price = p.prices[vt];
            return price === null
              ? []
              : [{ validityType: vt, days: cellValidityDays[vt], price: fromMinor(price) }];
          }),
        }))
        .filter((p) => p.prices.length > 0);
      return {
        planList,
        simKitFee: fromMinor(kit ?? (0 as Minor)),
        balance: fromMinor(contact.balance),
        phone: contact.phone,
        email: contact.email,
      };
    },

    /**
     * Orders a plan: a new eSIM / SIM line, or (card type 3) more time on a line of the account. One
     * transaction: the line locked, the bill (400001 when the balance is short), the line and the order.
     * The same requestId again answers the first order and charges nothing.
     */
    async order(accountId: number, brand: BrandId, input: CellOrderInput) {
      const plan = await cellPlansRepo.plan(db.q, input.planId);
      if (!plan || !plan.active) throw new ApiError(100002, null, 'no such plan');
      const price = await pricing.rate(brand, 'cell_plan', {
        country: plan.country,
        variant: `${plan.code}_${input.validityType}`,
      });
      if (price === null) throw new ApiError(100003, null, 'plan not priced for this brand');
      const planOnly = input.cardType === constants.cardTypes.planOnly;
      if (planOnly !== (input.lineId !== undefined))
        throw new ApiError(100001, null, 'lineId goes with card type 3 only');
      const kit =
        input.cardType === constants.cardTypes.physicalSim
          ? ((await pricing.rate(brand, 'cell_sim', { country: plan.country, variant: 'physical' })) ??
            (0 as Minor))
          : (0 as Minor);
      const contact = await cellPlansRepo.contact(db.q, accountId);
      // the line's contact is the account's verified phone: the page opens the verify flow on 100025
      if (!contact.phone) throw new ApiError(100025);

      const amount = addMinor(mulMinor(price, input.planCount), kit);
      const days = cellValidityDays[input.validityType] * input.planCount;
      const now = clock.now();
      const orderNo = newOrderNo(now);
      const ledgerId = await db.tx(async (tx) => {
        const line = input.lineId === undefined ? null : await cellPlansRepo.lockLine(tx, input.lineId);
        if (input.lineId !== undefined && !line) throw new ApiError(100002, null, 'no such line');
        if (line && line.accountId !== accountId) throw new ApiError(100003, null, "another account's line");
        const { row, applied } = await ledger.apply(tx, {
          accountId,
          type: constants.billTypes.simOrPlanOrder,
          charge: negMinor(amount),
          options: {
            orderId: orderNo,
            cardType: input.cardType,
            validityType: input.validityType,
            planCount: input.planCount,
            days,
          },
          idempotencyKey: idemKey('cell-order', accountId, input.requestId),
        });
        if (!applied) return row.id;
        const start = line ? new Date(Math.max(line.endsAt.getTime(), now)) : new Date(now);
        const end = new Date(start.getTime() + days * DAY_MS);
        let lineId: number;
        if (line) {
          lineId = line.id;
          await cellPlansRepo.extendLine(tx, line.id, plan.id, end);
        } else {
          lineId = await cellPlansRepo.insertLine(tx, {
            accountId,
            planId: plan.id,
            cardType: input.cardType,
            label: input.label ?? plan.code,
            startsAt: start,
            endsAt: end,
          });
        }
        await cellPlansRepo.insertOrder(tx, {
          orderNo,
          accountId,
          lineId,
          planId: plan.id,
          cardType: input.cardType,
          validityType: input.validityType,
          planCount: input.planCount,
          days,
          amount,
          contactPhone: contact.phone!,
          contactEmail: input.email ?? contact.email,
          ledgerId: row.id,
          periodStart: start,
          periodEnd: end,
          createdAt: new Date(now),
        });
        return row.id;
      });
      const order = await cellPlansRepo.orderByLedger(db.q, ledgerId);
      if (!order) throw new Error(`cell order of bill ${ledgerId} not found`);
      const after = await cellPlansRepo.contact(db.q, accountId);
      return { order: orderView(order), balance: fromMinor(after.balance) };
    },

    async orders(accountId: number, p: { pageNo: number; pageSize: number }) {
      const { rows, total } = await cellPlansRepo.orders(
        db.q,
        accountId,
        p.pageSize,
        (p.pageNo - 1) * p.pageSize,
      );
      return { totalRows: total, list: rows.map(orderView) };
    },

    /** One order of the account: another account's is refused (100003), an unknown one 100002. */
    async orderOf(accountId: number, orderNo: string) {
      const o = await cellPlansRepo.orderByNo(db.q, orderNo);
      if (!o) throw new ApiError(100002, null, 'no such order');
      if (o.accountId !== accountId) throw new ApiError(100003, null, "another account's order");
      return orderView(o);
    },

    async lines(accountId: number) {
      return { list: (await cellPlansRepo.lines(db.q, accountId)).map(lineView) };
    },

    async rename(accountId: number, lineId: number, label: string) {
      if (!(await cellPlansRepo.rename(db.q, accountId, lineId, label))) {
        const l = await cellPlansRepo.line(db.q, lineId);
        throw l
          ? new ApiError(100003, null, "another account's line")
          : new ApiError(100002, null, 'no such line');
      }
      return lineView((await cellPlansRepo.line(db.q, lineId))!);
    },
  };
}

export type CellPlanService = ReturnType<typeof createCellPlanService>;
