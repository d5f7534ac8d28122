import { expect, test } from '@playwright/test';
import { apiSignIn, expectAccessible, openSignedIn, request, topUpInSandbox, uniqueUsPhone } from './support';

/**
 * The embedded plans page (issue 11 item 7, spec 001 §2): the numa notice in Number management opens
 * it in a frame; the frame drives the host's header (title, back, buttons) by messages, goes to
 * Recharge and comes back where it was, follows the host's language, and orders a plan that shows in
 * its order history and in the bills.
 */
test('plans page: notice → frame, header messages, recharge and back, language, order in history and bills', async ({
  page,
}) => {
  const token = await apiSignIn('numa', { telCode: '1', phone: uniqueUsPhone() });
  await openSignedIn(page, null, token, '/numbers');
  await page
    .getByRole('dialog', { name: 'Get your own number' })
    .getByRole('button', { name: 'Close' })
    .first()
    .click();
  await page.getByRole('button', { name: 'Number management' }).click();
  await page.getByRole('button', { name: 'See US cell phone plans' }).click();

  const host = page.getByRole('region', { name: 'US cell phone plans' });
  const header = page.locator('.plans-host-header');
  const frame = page.frameLocator('iframe.plans-frame');
  await expect(frame.getByRole('heading', { name: 'Unlimited', exact: true })).toBeVisible();
  await expect(header.getByRole('heading')).toHaveText('US cell phone plans');
  await expect(header.getByRole('group', { name: 'Plan page actions' }).getByRole('button')).toHaveText([
    'Subscription history',
    'Order history',
  ]);
  await expectAccessible(page, 'the plans panel');
  await page.screenshot({ path: 'test-results/plans-home.png' });

  // a plan: the frame's title and its buttons reach the host's header; the host's back goes back in it
  await frame.getByRole('button', { name: 'Choose Unlimited', exact: true }).click();
  await expect(header.getByRole('heading')).toHaveText('Unlimited');
  await expect(header.getByRole('group')).toHaveCount(0);
  await header.getByRole('button', { name: 'Back' }).click();
  await expect(header.getByRole('heading')).toHaveText('US cell phone plans');
  await frame.getByRole('button', { name: 'Choose Unlimited', exact: true }).click();
  await frame.getByRole('radio', { name: /^90 days/ }).check({ force: true });
  await expect(frame.getByTestId('plans-total')).toHaveText('81.0000 Coins');
  await frame.getByRole('radio', { name: /^30 days/ }).check({ force: true });

  // short of money: Recharge in the host, and closing the payment comes back to this checkout
  await expect(frame.getByText('Your balance is short by 30.0000 Coins.')).toBeVisible();
  await expect(frame.getByRole('button', { name: /^Order for/ })).toBeDisabled();
  await frame.getByRole('button', { name: 'Recharge' }).click();
  await page.waitForURL(/\/account\/credit$/);
  await expect(page.getByRole('button', { name: '← Back to Numbers' })).toBeVisible();
  await topUpInSandbox(page, { amount: '50' });
  await page.waitForURL(/\/numbers$/);
  await expect(header.getByRole('heading')).toHaveText('Unlimited');
  await expect(frame.getByRole('radio', { name: /^30 days/ })).toBeChecked();
  await expect(frame.getByTestId('plans-total')).toHaveText('30.0000 Coins');

  // the host's language reaches the page, and its title comes back translated
  await page.getByRole('button', { name: '中文 – Switch to Chinese' }).click();
  await expect(header.getByRole('heading')).toHaveText('无限流量');
  await expect(frame.getByRole('button', { name: /^订购 / })).toBeVisible();
  await page.screenshot({ path: 'test-results/plans-checkout-zh.png' });
  await page.getByRole('button', { name: 'EN – 切换到英文' }).click();
  await expect(header.getByRole('heading')).toHaveText('Unlimited');

  // order: details, then the order history button of the plans page lists it
  const before = (await request('GET', '/web/queryBalance', null, undefined, token)).json.data
    .balance as number;
  await frame.getByRole('button', { name: 'Order for 30.0000 Coins' }).click();
  await expect(frame.getByText('Order placed: your line is active.')).toBeVisible();
  await expect(header.getByRole('heading')).toHaveText('Order details');
  const orderId = (await frame.locator('dd').first().textContent())!;
  expect(orderId).toMatch(/^C[0-9A-Z]+$/);
  await page.screenshot({ path: 'test-results/plans-order.png' });
  await header.getByRole('button', { name: 'Back' }).click();
  await header.getByRole('button', { name: 'Order history' }).click();
  await expect(frame.getByRole('button', { name: `Order ${orderId}, Unlimited` })).toContainText(
    '-30.0000 Coins',
  );
  const after = (await request('GET', '/web/queryBalance', null, undefined, token)).json.data
    .balance as number;
  expect(Math.round((before - after) * 10_000)).toBe(300_000);
  await expectAccessible(page, 'the plans order history');
  // the page itself (its own document), for axe
  const inner = await page.context().newPage();
  await inner.goto(`/plans/?platform=numa&osType=pc&languagecode=en&token=${token}`);
  await inner.getByRole('button', { name: 'Choose Starter 5 GB', exact: true }).click();
  await expect(inner.getByRole('button', { name: 'Order for 15.0000 Coins' })).toBeEnabled();
  await expectAccessible(inner, 'the plans page checkout');
  await inner.close();

  // the back button at the page's start leaves the panel; the bill is in Bill history
  await header.getByRole('button', { name: 'Back' }).click();
  await header.getByRole('button', { name: 'Back' }).click();
  await expect(host).toHaveCount(0);
  await page.goto('/account/billHistory');
  const bills = page.getByRole('region', { name: 'Bill history' });
  await expect(bills.getByRole('listitem').first()).toContainText('-30.0000 Coins');
  await expect(bills.getByRole('listitem').first()).toContainText('SIM or plan order');
});
