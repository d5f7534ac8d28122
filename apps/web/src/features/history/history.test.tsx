import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { billTypeLabel, constants, type BillItem, type PaymentHistoryItem } from '@numa/contract';
import { i18n, setLang } from '../../lib/i18n';
import { BillRow } from './BillHistoryPanel';
import { PaymentRow } from './PaymentHistoryPanel';

const bt = constants.billTypes;
const bill = (type: number, charge: number, afterBalance: number): BillItem => ({
  _id: `b${type}`,
  type: type as BillItem['type'],
  charge,
  beforeBalance: afterBalance - charge,
  afterBalance,
  date: Date.UTC(2026, 10, 20, 12),
  options: { amount: 10, gift: 0, purchaseMethod: 'creditCard', orderId: '42' },
});
const showBills = (bills: BillItem[]) =>
  render(
    <ul aria-label="bills">
      {bills.map((b) => (
        <BillRow key={b._id} bill={b} />
      ))}
    </ul>,
  );

afterEach(async () => {
  cleanup();
  await setLang('en');
});

describe('bill history: money going back (issue 18)', () => {
  it("names every bill type as the contract does, in English and Chinese (the CSV's names)", async () => {
    for (const lang of ['en', 'zh'] as const) {
      await setLang(lang);
      for (const [name, type] of Object.entries(constants.billTypes))
        expect(i18n.t(`history.billTypes.${name}`), `${lang} ${name}`).toBe(billTypeLabel(type, lang));
    }
  });

  it('shows a refunded top-up, a chargeback that took the balance below zero, and their reversals', async () => {
    const bills = [
      bill(bt.topUpRefund, -11.5, 0),
      bill(bt.chargeback, -10, -8),
      bill(bt.chargebackReversed, 10, 2),
      bill(bt.refundReversed, 11.5, 13.5),
    ];
    showBills(bills);
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.history-main')!.firstChild!.textContent)).toEqual([
      'Top-up refunded',
      'Chargeback',
      'Chargeback reversed',
      'Refund reversed',
    ]);
    // the top-up's method beside it; negatives with a minus, the balance below zero marked
    expect(rows[1]!.textContent).toContain('Card');
    expect(rows[1]!.querySelector('.history-amount')!.textContent).toBe('-10.0000 Coins');
    expect(rows[1]!.querySelector('.history-after')!.textContent).toBe('Balance -8.0000 Coins');
    expect(rows[1]!.querySelector('.history-after')!.classList.contains('negative')).toBe(true);
    expect(rows[2]!.querySelector('.history-amount')!.textContent).toBe('+10.0000 Coins');
    cleanup();

    await setLang('zh');
    showBills(bills);
    expect(
      screen.getAllByRole('listitem').map((r) => r.querySelector('.history-main')!.firstChild!.textContent),
    ).toEqual(['充值退款', '拒付扣款', '拒付撤销', '退款撤回']);
    expect(screen.getAllByRole('listitem')[1]!.textContent).toContain('银行卡');
    expect(screen.getAllByRole('listitem')[1]!.querySelector('.history-after')!.textContent).toContain(
      '-8.0000',
    );
  });

  it('says beside a top-up that it was refunded or disputed', async () => {
    const pay = (over: Partial<PaymentHistoryItem>): PaymentHistoryItem => ({
      _id: 'p1',
      method: 'creditCard',
      amount: 20,
      gifts: 3,
      date: Date.UTC(2026, 10, 20, 12),
      ...over,
    });
    const text = (p: PaymentHistoryItem) => {
      const { container, unmount } = render(
        <div>
          <PaymentRow payment={p} />
        </div>,
      );
      const t = container.querySelector('.history-main')!.textContent;
      unmount();
      return t;
    };
    expect(text(pay({}))).toBe('Card');
    expect(text(pay({ refunded: 20 }))).toBe('Card · Refunded');
    expect(text(pay({ refunded: 5 }))).toBe('Card · 5.00 Coins refunded');
    expect(text(pay({ dispute: 'open' }))).toBe('Card · Disputed');
    expect(text(pay({ refunded: 5, dispute: 'lost' }))).toBe('Card · 5.00 Coins refunded · Chargeback');
    await setLang('zh');
    expect(text(pay({ refunded: 20 }))).toBe('银行卡 · 已退款');
    expect(text(pay({ dispute: 'won' }))).toBe('银行卡 · 争议胜诉');
  });
});
