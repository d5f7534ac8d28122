import { expect, test, type Page } from '@playwright/test';
import { adminCommand, apiSignIn, openSignedIn, rail, request, uniqueUsPhone } from './support';

/**
 * The money and numbers screens as people meet them (issue 20): what a real user still tripped on,
 * in English and Chinese. One numa account (verified billing profile, credited by the operator) is
 * shared by the tests, each on its own screen; screenshots at 1280 and 360 px go to test-results/.
 */

let page: Page;
let token: string;

const shot = async (name: string) => {
  await page.screenshot({ path: `test-results/i20-${name}-1280.png` });
  await page.setViewportSize({ width: 360, height: 760 });
  await page.screenshot({ path: `test-results/i20-${name}-360.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
};

/** Switches the interface language the way the EN/中文 switch keeps it, and reloads at `path`. */
async function lang(l: 'en' | 'zh', path: string) {
  await page.evaluate((v) => window.localStorage.setItem('numa.lang', v), l);
  await page.goto(new URL(path, page.url()).toString());
}

/** Rents a free US number (area code 480) on Pay As You Go, monthly, through the API; returns it (digits). */
async function rent(as = token): Promise<string> {
  const free = await request(
    'GET',
    '/web/getVirtualPhoneByAreaCode?code=US&type=local&telCode=1&areaCode=480',
    null,
    undefined,
    as,
  );
  const plans = await request('GET', '/web/getPlanList?code=US&type=local', null, undefined, as);
  const plan = (
    plans.json.data.planList as { planId: number; planName: string; planRentPeriod: string }[]
  ).find((p) => p.planName === 'Pay As You Go' && p.planRentPeriod === 'month')!;
  for (const n of free.json.data.numbers as string[]) {
    const r = await request(
      'POST',
      '/web/subVirtualPhone',
      null,
      { platform: 'numa', planId: plan.planId, telCode: '1', phone: n, code: 'US', type: 'local' },
      as,
    );
    if (r.json.retcode === 0) return `1${n}`;
  }
  throw new Error('no number rented');
}

/** +1 480-555-0134 → the international format the screens use (+1 480 555 0134). */
const shown = (full: string) => `+1 ${full.slice(1, 4)} ${full.slice(4, 7)} ${full.slice(7)}`;

/** A numa account with a verified phone and an approved billing profile, credited `coins` by the operator. */
async function newAccount(coins: string): Promise<string> {
  const phone = uniqueUsPhone();
  const token = await apiSignIn('numa', { telCode: '1', phone });
  const profile = await request(
    'POST',
    '/web/updateProfile',
    null,
    {
      platform: 'numa',
      firstName: 'Grace',
      lastName: 'Hopper',
      address: '1 Main St',
      city: 'Phoenix',
      province: 'AZ',
      postalCode: '85001',
      country: 'United States',
      regionCode: 'US',
    },
    token,
  );
  expect(profile.json.retcode).toBe(0);
  expect((await adminCommand('review', 'approve', `+1${phone}`, 'profile')).stderr).toBe('');
  expect((await adminCommand('account', 'credit', `+1${phone}`, coins, '--note', 'e2e')).code).toBe(0);
  return token;
}

/** Resolves once the page's socket is connected (Socket.IO's connect packet came back). */
const socketConnected = (p: Page) =>
  new Promise<void>((resolve) =>
    p.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (String(f.payload).startsWith('40')) resolve();
      }),
    ),
  );

test.beforeAll(async ({ browser }) => {
  token = await newAccount('60');
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // the numbers tab's first-open tip is not what these tests are about
  await page.addInitScript(() => window.localStorage.setItem('numa.numbersTipSeen', '1'));
  await openSignedIn(page, null, token, '/numbers');
});

test.afterAll(async () => {
  await page?.close();
});

test('1. a double-clicked Re-subscribe restores the number once and says so', async () => {
  const full = await rent();
  expect((await adminCommand('number', 'reclaim', `+${full}`)).code).toBe(0);
  await lang('en', '/numbers');
  await page.getByRole('button', { name: 'Subscription history' }).click();
  const expired = page.getByRole('listitem').filter({ hasText: 'Expired' });
  await expired.getByRole('button', { name: 'Re-subscribe' }).dblclick();
  const result = page.getByRole('alertdialog');
  await expect(result).toContainText('is yours');
  await expect(result).not.toContainText('Cannot restore');
  await result.getByRole('button', { name: 'OK' }).click();
  // restored and charged once
  await expect(page.getByRole('listitem').filter({ hasText: 'Re-subscribed' })).toHaveCount(1);
  const mine = await request('GET', '/web/getVirtualPhoneList', null, undefined, token);
  expect((mine.json.data.virtualPhones as { phone: string }[]).map((n) => n.phone)).toContain(full.slice(1));
});

test('2. after Unsubscribe the row says when the number is released and offers no second Unsubscribe', async () => {
  const full = await rent();
  const row = page.getByRole('row', { name: new RegExp(shown(full).replace(/\+/g, '\\+')) });
  await lang('en', '/numbers');
  await page.getByRole('button', { name: 'Number management' }).click();
  await row.getByRole('button', { name: `Unsubscribe ${shown(full)}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Unsubscribe this number?' })
    .getByRole('button', { name: 'Unsubscribe' })
    .click();
  await expect(row).toContainText(/Released on \d{4}-\d{2}-\d{2}/);
  await expect(row).toContainText('No renewal');
  await expect(row.getByRole('button', { name: /Unsubscribe/ })).toHaveCount(0);
  await shot('unsubscribed');
  await lang('zh', '/numbers');
  await page.getByRole('button', { name: '号码管理' }).click();
  await expect(row).toContainText(/将于 \d{4}-\d{2}-\d{2} 释放/);
  await expect(row).toContainText('不再续费');
  await expect(row.getByRole('button', { name: /退订/ })).toHaveCount(0);
  await shot('unsubscribed-zh');
});

test('3. a cleared or lettered custom amount shows the rule where one types, never NaN', async () => {
  for (const l of ['en', 'zh'] as const) {
    const L =
      l === 'en'
        ? {
            panel: 'Recharge',
            custom: 'Custom',
            field: /Custom amount/,
            rule: 'Enter an amount from 11 to 200.',
          }
        : { panel: '充值', custom: '自定义', field: /自定义金额/, rule: '请输入 11 至 200 之间的金额。' };
    await lang(l, '/account/credit');
    const panel = page.getByRole('region', { name: L.panel });
    await panel.getByRole('radio', { name: new RegExp(L.custom) }).check({ force: true });
    const field = panel.getByRole('textbox', { name: L.field });
    await field.fill('');
    await field.blur();
    await expect(panel).not.toContainText('NaN');
    await expect(panel.getByText(L.rule)).toBeVisible();
    await field.pressSequentially('ab');
    await field.blur();
    await expect(field).toHaveValue('');
    await expect(panel).not.toContainText('NaN');
    await expect(
      panel.getByRole('button', { name: l === 'en' ? 'Pay' : '支付', exact: true }),
    ).toBeDisabled();
    if (l === 'en') await shot('custom-cleared');
    await field.fill('25.5');
    await field.blur();
    await expect(panel.getByTestId('pay-total')).toContainText('25.50');
  }
});

test('4. the WeChat Pay and crypto dialogs show the amount summary (wephone, both languages)', async ({
  browser,
}) => {
  const other = await browser.newPage();
  const wephone = await apiSignIn('wephone', { telCode: '1', phone: uniqueUsPhone() });
  await openSignedIn(other, 'wephone', wephone, '/account/credit');
  for (const l of ['en', 'zh'] as const) {
    const L =
      l === 'en'
        ? {
            panel: 'Recharge',
            pay: 'Pay',
            wechat: 'WeChat Pay',
            crypto: 'Pay with crypto',
            total: 'Total price',
          }
        : { panel: '充值', pay: '支付', wechat: '微信支付', crypto: '加密货币支付', total: '总价' };
    if (l === 'zh') {
      await other.evaluate(() => window.localStorage.setItem('numa.lang', 'zh'));
      await other.reload();
    }
    const panel = other.getByRole('region', { name: L.panel });
    await panel.getByRole('radio', { name: /^\$10(?!0)/ }).check({ force: true });
    await panel.getByRole('radio', { name: L.wechat }).check({ force: true });
    await panel.getByRole('button', { name: L.pay, exact: true }).click();
    const wechat = other.getByRole('dialog', { name: L.wechat });
    await expect(wechat.getByTestId('pay-total')).toHaveText('$10.0000');
    await expect(wechat).toContainText(L.total);
    await expect(wechat.getByRole('img')).toBeVisible();
    if (l === 'en') {
      await other.screenshot({ path: 'test-results/i20-wechat-1280.png' });
      await other.setViewportSize({ width: 360, height: 760 });
      await other.screenshot({ path: 'test-results/i20-wechat-360.png' });
      await other.setViewportSize({ width: 1280, height: 800 });
    }
    await wechat.getByRole('button').last().click();
    await panel.getByRole('radio', { name: /Crypto transfer|加密货币转账/ }).check({ force: true });
    await panel.getByRole('button', { name: L.pay, exact: true }).click();
    const crypto = other.getByRole('dialog', { name: L.crypto });
    await expect(crypto.getByTestId('pay-total')).toHaveText('$10.0000');
    await expect(crypto).toContainText(L.total);
    if (l === 'en') await other.screenshot({ path: 'test-results/i20-crypto-1280.png' });
    await other.keyboard.press('Escape');
  }
  await other.close();
});

test('5. Cancel on the provider’s page is reported back in the payment dialog', async () => {
  for (const l of ['en', 'zh'] as const) {
    await lang(l, '/account/credit');
    const panel = page.getByRole('region', { name: l === 'en' ? 'Recharge' : '充值' });
    await panel.getByRole('radio', { name: /^10\b/ }).check({ force: true });
    await panel.getByRole('radio', { name: /^(Card|银行卡)/ }).check({ force: true });
    const popup = page.waitForEvent('popup');
    await panel.getByRole('button', { name: l === 'en' ? 'Pay' : '支付', exact: true }).click();
    const provider = await popup;
    await provider.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: l === 'en' ? 'Payment' : '支付' });
    await expect(dialog.getByRole('alert')).toHaveText(
      l === 'en' ? 'The payment was not completed: you cancelled it.' : '支付未完成：您已取消支付。',
    );
    await expect(dialog.getByRole('button', { name: l === 'en' ? 'Try again' : '重试' })).toBeVisible();
    if (l === 'en') await shot('cancelled');
    await provider.close();
    await dialog
      .getByRole('button', { name: l === 'en' ? 'Close' : '关闭' })
      .first()
      .click();
  }
});

test('6. back from Recharge during New number: step 2 with the number and the plan still chosen', async () => {
  await lang('en', '/numbers');
  for (const l of ['en', 'zh'] as const) {
    const L =
      l === 'en'
        ? {
            list: 'Available numbers',
            next: 'Next',
            group: 'Pay As You Go',
            period: 'Monthly',
            topUp: 'Balance: top up',
            back: 'Back to Numbers',
          }
        : {
            list: '可用号码',
            next: '下一步',
            group: '按量付费',
            period: '月付',
            topUp: '余额：充值',
            back: '返回号码',
          };
    const option = page.getByRole('listbox', { name: L.list }).getByRole('option').nth(1);
    const chosen = (await option.textContent())!;
    await option.click();
    await page.getByRole('button', { name: L.next }).click();
    await page.getByText(L.group, { exact: true }).click();
    await page.getByText(L.period, { exact: true }).click();
    await page.getByRole('button', { name: L.topUp }).click();
    await page.getByRole('button', { name: new RegExp(L.back) }).click();
    await expect(page.getByTestId('chosen-number')).toHaveText(chosen);
    await expect(page.getByRole('radio', { name: L.group })).toBeChecked();
    await expect(page.getByRole('radio', { name: new RegExp(L.period) })).toBeChecked();
    if (l === 'en') {
      await shot('back-from-recharge');
      // back to step 1: the same number is still the one chosen
      await page.getByRole('button', { name: 'Back' }).first().click();
      await expect(page.getByRole('option', { name: chosen })).toHaveAttribute('aria-selected', 'true');
      await rail(page)
        .getByRole('button', { name: /Switch to/ })
        .click();
    }
  }
});

test('7. the renewal-failed notice offers Recharge (both languages)', async ({ browser }) => {
  // five operator commands and two signed-in windows: beside the unit suites in `npm test` this took
  // over the default minute once
  test.setTimeout(120_000);
  // 4.09 of 5 rents the number: its next rent cannot be paid
  const short = await newAccount('5');
  const full = await rent(short);
  // the account open in two windows, one in English, one in Chinese: both are told
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => window.localStorage.setItem('numa.numbersTipSeen', '1'));
  const en = await context.newPage();
  let connected = socketConnected(en);
  await openSignedIn(en, null, short, '/numbers');
  await connected;
  const zh = await context.newPage();
  await zh.goto(en.url());
  await zh.evaluate(() => window.localStorage.setItem('numa.lang', 'zh'));
  connected = socketConnected(zh);
  await zh.reload();
  await connected;
  // the operator's reclaim and restore make the rent due today; the renewal run cannot charge it
  expect((await adminCommand('number', 'reclaim', `+${full}`)).code).toBe(0);
  expect((await adminCommand('number', 'restore', `+${full}`)).code).toBe(0);
  expect((await adminCommand('number', 'renew-now')).code).toBe(0);
  for (const [p, l] of [
    [en, 'en'],
    [zh, 'zh'],
  ] as const) {
    const notice = p.getByRole('alertdialog', {
      name: l === 'en' ? 'Your number could not be renewed' : '号码续费失败',
    });
    await expect(notice).toContainText(shown(full));
    await p.screenshot({ path: `test-results/i20-renewal-failed-${l}-1280.png` });
    if (l === 'en') {
      await p.setViewportSize({ width: 360, height: 760 });
      await p.screenshot({ path: 'test-results/i20-renewal-failed-360.png' });
      await p.setViewportSize({ width: 1280, height: 800 });
    }
    await notice.getByRole('button', { name: l === 'en' ? 'Recharge' : '充值' }).click();
    await expect(p.getByRole('region', { name: l === 'en' ? 'Recharge' : '充值' })).toBeVisible();
  }
  await context.close();
});

test('8. province and state names follow the interface language in New number', async () => {
  await lang('zh', '/numbers');
  const province = page.getByRole('combobox', { name: '省/州' });
  const options = province.getByRole('option');
  await expect(options.filter({ hasText: '亚利桑那州' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'Arizona' })).toHaveCount(0);
  await province.selectOption({ label: '亚利桑那州' });
  await expect(page.getByRole('combobox', { name: '区号' })).toHaveValue('480');
  await shot('provinces-zh');
  // to English without a reload: the same state, named in English
  await rail(page)
    .getByRole('button', { name: /切换到英文/ })
    .click();
  await expect(page.getByRole('combobox', { name: 'Province' }).locator('option:checked')).toHaveText(
    'Arizona',
  );
  await expect(page.getByRole('combobox', { name: 'Area code' })).toHaveValue('480');
});

test('9. Subscription history formats its numbers; Make Call rates say per minute on both lines', async () => {
  await rent();
  for (const l of ['en', 'zh'] as const) {
    await lang(l, '/numbers');
    await page.getByRole('button', { name: l === 'en' ? 'Subscription history' : '订阅记录' }).click();
    const first = page
      .getByRole('region', { name: l === 'en' ? 'Subscription history' : '订阅记录' })
      .getByRole('listitem')
      .first();
    await expect(first).toContainText(/\+1 \d{3} \d{3} \d{4}/);
    await expect(first).not.toContainText(/\+\d{11}/);
    if (l === 'en') await shot('subs-history');
    await lang(l, '/account/rates');
    const economic = page.locator('.rates-table tbody tr td:nth-child(4)').filter({ hasText: /\d/ });
    await expect(economic.first()).toContainText(l === 'en' ? '/ min' : '/ 分钟');
    if (l === 'en') await shot('rates');
  }
});
