import { expect, test, type Page } from '@playwright/test';
import {
  adminCommand,
  api,
  apiSignIn,
  hostUrl,
  openSignedIn,
  request,
  signInByEmail,
  topUpInSandbox,
  uniqueEmail,
} from './support';

/** The balance the verification page shows, as a number. */
const balanceOf = async (page: Page) =>
  Number((await page.getByTestId('codes-balance').textContent())!.replace(/[^\d.-]/g, ''));

/** A verified billing profile (keeping a number needs one): filled in, then approved by the operator. */
async function approvedProfile(brand: string, email: string, token: string) {
  const profile = {
    platform: brand,
    firstName: 'Li',
    lastName: 'Wei',
    address: '1 Main St',
    city: 'Austin',
    province: 'TX',
    country: 'United States',
    regionCode: 'US',
    postalCode: '73301',
  };
  expect(
    (await request('POST', '/web/updateProfile?languagecode=en', brand, profile, token)).json.retcode,
  ).toBe(0);
  expect((await adminCommand('review', 'approve', email, 'profile', '--brand', brand)).code).toBe(0);
}

test('jiema and numa: from the applist front page to a code that arrives live and is charged once; top-up, bills, subscribe, receive again, send', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // jiema, anonymous, in Chinese: the applist front page's Next goes to our own public page of the app
  // and country; getting a number there asks to log in, and the login lands on that app and country
  await page.goto(hostUrl('jiema', '/'));
  await page.locator('.app-tile', { hasText: 'WhatsApp' }).click();
  await page.getByRole('button', { name: /^(Next|下一步)$/ }).click();
  await expect(page).toHaveURL(/\/receive\/whatsapp\/US$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('WhatsApp');
  await expect(
    page
      .getByRole('list', { name: /WhatsApp/ })
      .getByRole('listitem')
      .first(),
  ).toContainText(/\+120655501\d\d/);
  await page.getByRole('button', { name: /^(Get a New Number|获取新号码)$/ }).click();
  const ask = page.getByRole('dialog', { name: /Log in to get a number|登录后获取号码/ });
  await ask.getByRole('button', { name: /^(Log in|登录)$/ }).click();
  const email = uniqueEmail('codes');
  await signInByEmail(page, email, 'zh');
  await expect(page).toHaveURL(/\/verification$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('radio', { name: 'WhatsApp' })).toBeChecked();
  const token = (await page.evaluate(() => window.localStorage.getItem('numa.token')))!;
  await approvedProfile('jiema', email, token);

  // top up in the sandbox (Alipay needs no phone), then back to the page
  await topUpInSandbox(page, { method: 'Alipay|支付宝' });
  await page.goto(hostUrl('jiema', '/verification'));
  // the top-up shows (the card may first show its loading state, which reads as no number)
  await expect.poll(() => balanceOf(page)).toBeGreaterThan(5);
  const start = await balanceOf(page);
  await main.getByRole('searchbox').fill('whats');
  await main.locator('.app-tile', { hasText: 'WhatsApp' }).click();
  await expect(main.getByText(/0\.25/).first()).toBeVisible();
  // without the terms ticked, the alert says so
  await main.getByRole('button', { name: /^(Get number|获取号码)$/ }).click();
  await expect(page.getByRole('alertdialog').or(page.getByRole('alert')).first()).toContainText(
    /tick the terms|勾选条款/,
  );
  await page.keyboard.press('Escape');
  await main.locator('.codes-agree').click();
  await main.getByRole('button', { name: /^(Get number|获取号码)$/ }).click();
  const number = page.getByTestId('locked-number');
  await expect(number).toHaveText(/^\+1 206 555 01\d\d$/);
  // the tip banner: hint, then (number copied) waiting, then received, then code copied
  const tip = main.locator('.codes-tip');
  await expect(tip).toHaveClass(/codes-tip-hint/);
  await main.getByRole('button', { name: /^(Copy number|复制号码)$/ }).click();
  await expect(tip).toHaveClass(/codes-tip-(numberCopied|waiting)/);
  // the simulated WhatsApp sends its code 3 s after the lock: it shows at once, highlighted, charged once
  const code = main.locator('.codes-code').first();
  await expect(code).toHaveText(/^\d{6}$/, { timeout: 15_000 });
  await expect(tip).toHaveClass(/codes-tip-received/);
  await expect(main.getByText(/WhatsApp/).filter({ hasText: /\d{3}-\d{3}/ })).toBeVisible();
  await main.getByRole('button', { name: /^(Copy code|复制验证码)$/ }).click();
  await expect(main.getByRole('status').filter({ hasText: /Code copied|验证码已复制/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
  await expect.poll(() => balanceOf(page)).toBeCloseTo(start - 0.25, 4);
  // while receiving, the rest of the page is locked: touching it asks to press Done first
  await main.getByRole('button', { name: /press Done first|请先点击完成/ }).click();
  await expect(page.getByRole('alertdialog')).toContainText(/press Done first|请先点击完成/);
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^(OK|确定)$/ })
    .click();
  // 'try another number' is off once an SMS came
  await expect(main.getByRole('button', { name: /Try another number|换一个号码/ })).toBeDisabled();
  // keep it: subscribe (the month's rent with its bill), thanks, then the flow ends
  const lockedText = (await number.textContent())!.replace(/\D/g, '');
  await main.getByRole('button', { name: /^(Subscribe|订阅)$/ }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^(Subscribe|订阅)$/ })
    .click();
  await expect(page.getByRole('alertdialog')).toContainText(/Subscribed|订阅成功/);
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^(OK|确定)$/ })
    .click();
  await expect(number).toHaveCount(0);
  await expect.poll(() => balanceOf(page)).toBeCloseTo(start - 2.25, 4);
  // Recently used: the kept number, its SMS history, and receiving on it again
  await main.getByRole('tab', { name: /Recently used numbers|最近使用的号码/ }).click();
  await expect(main.getByRole('radio', { name: new RegExp(`\\+${lockedText}`) })).toBeChecked();
  await expect(main.getByText(/Subscribed|已订阅/).first()).toBeVisible();
  await expect(main.locator('.codes-history .codes-sms')).toHaveCount(1);
  await main.locator('.codes-tabpanel:not([inert]) .codes-agree').click();
  await main.getByRole('button', { name: /^(Receive code|接收验证码)$/ }).click();
  await expect(number).toHaveText(new RegExp(lockedText.slice(-4)));
  await expect(main.locator('.codes-receive .codes-code')).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(() => balanceOf(page)).toBeCloseTo(start - 2.5, 4);
  await main.getByRole('button', { name: /^(Done|完成)$/ }).click();
  await expect(number).toHaveCount(0);
  // the charges in the bills: two codes and the month's rent
  await page.goto(hostUrl('jiema', '/account/billHistory'));
  const bills = page.getByRole('region', { name: /^(Bill history|账单记录)$/ });
  await expect(bills.getByRole('listitem').filter({ hasText: /Verification code|验证码/ })).toHaveCount(2);
  await expect(bills.getByRole('listitem').first()).toContainText('-$0.2500');
  // the account's verification history: the subscription, with its charge
  await page.goto(hostUrl('jiema', '/account/codeHistory'));
  await expect(page.locator('.codes-history-row').first()).toContainText(/Subscribed|订阅/);
  await expect(page.locator('.codes-history-row').first()).toContainText('-$2.0000');
  await page.screenshot({ path: 'test-results/codes-history.png' });

  // numa: the new-code page; a text sent to the locked number is read and charged once
  const email2 = uniqueEmail('codes-numa');
  const token2 = await apiSignIn('numa', { email: email2 });
  await approvedProfile('numa', email2, token2);
  await page.context().clearCookies();
  const page2 = await context.newPage();
  await openSignedIn(page2, null, token2, '/account/credit');
  await topUpInSandbox(page2, { method: 'Alipay' });
  await page2.goto(hostUrl(null, '/verification'));
  const main2 = page2.getByRole('main');
  await expect.poll(() => balanceOf(page2)).toBeGreaterThan(5);
  const start2 = await balanceOf(page2);
  await main2.locator('.app-tile', { hasText: 'Telegram' }).click();
  await main2.locator('.codes-agree').click();
  await main2.getByRole('button', { name: 'Next' }).click();
  const locked2 = (await page2.getByTestId('locked-number').textContent())!.replace(/\D/g, '');
  const sent = await fetch(`${api}/dev/code-sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      number: locked2,
      app: 'telegram',
      text: 'Telegram code: 81234\n\nYou can also tap on this link to log in',
    }),
  });
  expect(((await sent.json()) as { status: string }).status).toBe('charged');
  await expect(main2.locator('.codes-code').filter({ hasText: '81234' })).toBeVisible();
  await main2.getByRole('button', { name: 'Copy code' }).first().click();
  await expect(main2.getByRole('status').filter({ hasText: 'Code copied' })).toBeVisible();
  await expect(main2.locator('.codes-sms')).toHaveCount(2, { timeout: 15_000 }); // the simulated app's own code too
  await expect.poll(() => balanceOf(page2)).toBeCloseTo(start2 - 0.4, 4);
  // Done on a number that could be kept asks first: stay
  await main2.getByRole('button', { name: 'Done', exact: true }).click();
  await page2.getByRole('alertdialog').getByRole('button', { name: 'Stay' }).click();
  // the send side of the toggle: a text from the number, charged as an SMS
  await main2.getByRole('tab', { name: 'Send' }).click();
  await main2.getByRole('textbox', { name: 'Recipient phone' }).fill('415 555 0134');
  await main2.getByRole('textbox', { name: 'Text', exact: true }).fill('Thanks, got it');
  await main2.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(main2.getByRole('status').filter({ hasText: 'Sent to +14155550134.' })).toBeVisible();
  await expect.poll(() => balanceOf(page2)).toBeCloseTo(start2 - 0.408, 4);
  await page2.screenshot({ path: 'test-results/codes-numa.png' });
  // keep it, then receive on it again from the number list (the account's own numbers come first)
  await main2.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await page2.getByRole('dialog').getByRole('button', { name: 'Subscribe' }).click();
  await page2.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page2.getByTestId('locked-number')).toHaveCount(0);
  await page2.getByRole('button', { name: 'Number management' }).click();
  await expect(page2.getByRole('row', { name: new RegExp(locked2) })).toContainText('Subscribed');
  await page2.getByRole('button', { name: /New verification/ }).click();
  await main2.locator('.app-tile', { hasText: 'Telegram' }).click();
  await main2.locator('.codes-number-option', { hasText: `+${locked2}` }).click();
  await expect(main2.getByRole('radio', { name: new RegExp(`\\+${locked2}`) })).toBeChecked();
  await main2.locator('.codes-agree').click();
  await main2.getByRole('button', { name: 'Next' }).click();
  await expect(page2.getByTestId('locked-number')).toHaveText(new RegExp(locked2.slice(-4)));
  await expect(main2.locator('.codes-receive .codes-code')).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(() => balanceOf(page2)).toBeCloseTo(start2 - 0.408 - 2 - 0.2, 4);
  await main2.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(page2.getByTestId('locked-number')).toHaveCount(0);
});
