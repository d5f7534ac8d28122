import { expect, test } from '@playwright/test';
import {
  adminCommand,
  apiSignIn,
  expectAccessible,
  openSignedIn,
  rail,
  topUpInSandbox,
  uniqueUsPhone,
} from './support';

/*
 * Money going back (issue 18 §3), as the user sees it: a top-up refunded in part by the operator (the
 * sandbox's own refund notification follows and moves nothing more) takes its share of the gift, the
 * balance follows live, and the bill and payment histories say so in English and Chinese.
 */
test('a refunded top-up: the balance follows live, the bill and payment histories name it in English and Chinese', async ({
  page,
}) => {
  const phone = uniqueUsPhone();
  const token = await apiSignIn('numa', { telCode: '1', phone });
  await openSignedIn(page, null, token, '/account/credit');
  await topUpInSandbox(page, { custom: 20 });
  const panel = page.getByRole('region', { name: 'Recharge' });
  await expect(panel.getByTestId('recharge-balance')).toHaveText('23.0000 Coins');

  const listed = await adminCommand('payment', 'list', '--account', `+1${phone}`);
  const orderId = /#(\d+) {2}paid/.exec(listed.stdout)?.[1];
  expect(orderId, listed.stdout + listed.stderr).toBeTruthy();
  const refunded = await adminCommand('payment', 'refund', orderId!, '--amount', '5');
  expect(refunded.stdout.trim(), refunded.stderr).toBe('refunded 5 usd');
  // 5 of 20 with 0.75 of the 3 gift
  await expect(panel.getByTestId('recharge-balance')).toHaveText('17.2500 Coins');
  expect((await adminCommand('payment', 'show', orderId!)).stdout).toContain('paid (refunded 5 of 20)');

  const menu = page.getByRole('navigation', { name: 'Account menu' });
  await menu.getByRole('button', { name: 'Bill history' }).click();
  const bills = page.getByRole('region', { name: 'Bill history' }).getByRole('listitem');
  await expect(bills.first()).toContainText('Top-up refunded');
  await expect(bills.first()).toContainText('Card');
  await expect(bills.first()).toContainText('-5.7500 Coins');
  await expect(bills.first()).toContainText('Balance 17.2500 Coins');
  await page.screenshot({ path: 'test-results/money-back-bills-en.png' });
  await expectAccessible(page, 'the bill history with a refund');
  await menu.getByRole('button', { name: 'Payment history' }).click();
  await expect(
    page.getByRole('region', { name: 'Payment history' }).getByRole('listitem').first(),
  ).toContainText('Card · 5.00 Coins refunded');

  // the rest, then the Chinese screens
  expect((await adminCommand('payment', 'refund', orderId!)).stdout.trim()).toBe('refunded');
  await rail(page)
    .getByRole('button', { name: /Switch to/ })
    .click();
  await page.getByRole('navigation', { name: '账户菜单' }).getByRole('button', { name: '账单记录' }).click();
  const zhBills = page.getByRole('region', { name: '账单记录' }).getByRole('listitem');
  await expect(zhBills).toHaveCount(3);
  await expect(zhBills.first()).toContainText('充值退款');
  await expect(zhBills.first()).toContainText('-17.2500 金币');
  await expect(zhBills.first()).toContainText('余额 0.0000 金币');
  await page.screenshot({ path: 'test-results/money-back-bills-zh.png' });
  await page.getByRole('navigation', { name: '账户菜单' }).getByRole('button', { name: '支付记录' }).click();
  await expect(page.getByRole('region', { name: '支付记录' }).getByRole('listitem').first()).toContainText(
    '银行卡 · 已退款',
  );
});
