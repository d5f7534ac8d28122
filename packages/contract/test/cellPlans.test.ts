import { describe, expect, it } from 'vitest';
import * as cellPlans from '../src/api/cellPlans';
import { PlansHostMessage, PlansPageMessage, plansMessageSource } from '../src/plansFrame';

/*
 * The embedded plans page's own contract (kept out of the index so the web client's bundles do not
 * carry it): every call with a valid and an invalid input and output, and the frame messages.
 */
const t0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const cellLine = {
  lineId: 1,
  label: 'Unlimited eSIM',
  planId: 3,
  code: 'unlimited',
  cardType: 1,
  startDate: t0,
  endDate: t0 + 30 * 86_400_000,
  status: 'active',
  orderCount: 1,
};
const cellOrder = {
  orderId: 'C1A2B3',
  lineId: 1,
  lineLabel: 'Unlimited eSIM',
  planId: 3,
  code: 'unlimited',
  cardType: 1,
  validityType: 1,
  planCount: 1,
  days: 30,
  amount: 30,
  contactPhone: '14155550123',
  contactEmail: null,
  periodStart: t0,
  periodEnd: t0 + 30 * 86_400_000,
  date: t0,
};

const fixtures = {
  getCellPlanList: {
    validInput: {},
    invalidInput: { code: 'US' },
    validOutput: {
      planList: [
        {
          planId: 1,
          code: 'starter',
          dataGb: 5,
          unlimited: false,
          hotspotGb: 5,
          intlCalls: false,
          prices: [{ validityType: 1, days: 30, price: 15 }],
        },
      ],
      simKitFee: 2,
      balance: 20,
      phone: '14155550123',
      email: null,
    },
    invalidOutput: {
      planList: [{ planId: 1, code: 'starter', prices: [{ validityType: 5, days: 30, price: 15 }] }],
    },
  },
  orderCellPlan: {
    validInput: { planId: 1, cardType: 1, validityType: 1, planCount: 1, requestId: 'r-1' },
    invalidInput: { planId: 1, cardType: 4, validityType: 1, requestId: 'r-1' },
    validOutput: { order: cellOrder, balance: 5 },
    invalidOutput: { order: { ...cellOrder, cardType: 0 }, balance: 5 },
  },
  getCellOrderList: {
    validInput: { pageNo: '1', pageSize: '50' },
    invalidInput: { pageSize: '500' },
    validOutput: { totalRows: 1, list: [cellOrder] },
    invalidOutput: { totalRows: 1 },
  },
  getCellOrder: {
    validInput: { orderId: 'C1A2B3' },
    invalidInput: { orderId: '../x' },
    validOutput: cellOrder,
    invalidOutput: { ...cellOrder, amount: '15' },
  },
  getCellSubscriptionList: {
    validInput: {},
    invalidInput: { all: 1 },
    validOutput: { list: [cellLine] },
    invalidOutput: { list: [{ ...cellLine, status: 'paused' }] },
  },
  updateCellLine: {
    validInput: { lineId: 1, label: 'Travel phone' },
    invalidInput: { lineId: 1, label: '   ' },
    validOutput: cellLine,
    invalidOutput: { ...cellLine, lineId: 0 },
  },
};

describe('cell plan calls', () => {
  const defs = Object.entries(cellPlans).filter(
    ([, v]) => typeof v === 'object' && v !== null && 'path' in v && 'method' in v,
  ) as [keyof typeof fixtures, (typeof cellPlans)[keyof typeof fixtures]][];

  it('has a fixture for every call, all under /web/cellPlan/', () => {
    expect(defs.map(([n]) => n).sort()).toEqual(Object.keys(fixtures).sort());
    for (const [, d] of defs) expect(d.path.startsWith('/web/cellPlan/')).toBe(true);
  });
  it.each(defs)('%s: accepts the valid and refuses the invalid', (name, def) => {
    const f = fixtures[name];
    expect(def.input.safeParse(f.validInput).success).toBe(true);
    expect(def.input.safeParse(f.invalidInput).success).toBe(false);
    expect(def.output.safeParse(f.validOutput).success).toBe(true);
    expect(def.output.safeParse(f.invalidOutput).success).toBe(false);
  });
});

describe('plans frame messages', () => {
  const source = plansMessageSource;
  it('takes the page messages the host acts on, with a return URL inside the plans page only', () => {
    expect(
      PlansPageMessage.safeParse({
        source,
        type: 'pageChange',
        title: 'Plans',
        back: false,
        buttons: ['orderHistory'],
      }).success,
    ).toBe(true);
    expect(
      PlansPageMessage.safeParse({ source, type: 'recharge', returnUrl: '/plans/?view=checkout&planId=3' })
        .success,
    ).toBe(true);
    for (const returnUrl of [
      'https://evil.example/plans/',
      '//evil.example/plans/',
      '/account/credit',
      '/plans/\\evil',
    ])
      expect(PlansPageMessage.safeParse({ source, type: 'recharge', returnUrl }).success, returnUrl).toBe(
        false,
      );
    expect(PlansPageMessage.safeParse({ source: 'other', type: 'managePhone' }).success).toBe(false);
    expect(
      PlansPageMessage.safeParse({ source, type: 'pageChange', title: 'x', back: false, buttons: ['delete'] })
        .success,
    ).toBe(false);
  });
  it('takes the host answers', () => {
    expect(PlansHostMessage.safeParse({ source, type: 'header', button: 'back' }).success).toBe(true);
    expect(PlansHostMessage.safeParse({ source, type: 'language', languagecode: 'zh_cn' }).success).toBe(
      true,
    );
    expect(PlansHostMessage.safeParse({ source, type: 'language', languagecode: 'fr' }).success).toBe(false);
    expect(PlansHostMessage.safeParse({ source, type: 'phone', phone: null }).success).toBe(true);
  });
});
