import { expect, test } from '@playwright/test';
import { adminCommand, api, apiSignIn, openSignedIn, request, uniqueEmail } from './support';

test('jiema and numa: get a number for an app, the code arrives live and is charged once; try another; Done', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // jiema, in Chinese: the Chinese verification page (no more dead end)
  const email = uniqueEmail('codes');
  const token = await apiSignIn('jiema', { email });
  const credited = await adminCommand('account', 'credit', email, '5', '--brand', 'jiema', '--note', 'e2e');
  expect(credited.stdout + credited.stderr).toContain('→ 5');
  // keeping a number needs a verified billing profile
  const profile = {
    platform: 'jiema',
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
    (await request('POST', '/web/updateProfile?languagecode=en', 'jiema', profile, token)).json.retcode,
  ).toBe(0);
  expect((await adminCommand('review', 'approve', email, 'profile', '--brand', 'jiema')).code).toBe(0);
  await openSignedIn(page, 'jiema', token, '/verification');
  const main = page.getByRole('main');
  await main.getByRole('searchbox').fill('whats');
  await main.locator('.app-tile', { hasText: 'WhatsApp' }).click();
  await expect(main.getByRole('radio', { name: 'WhatsApp' })).toBeChecked();
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
  await expect(page.getByTestId('codes-balance')).toContainText('5.0000');
  // the simulated WhatsApp sends its code 3 s after the lock: it shows at once, highlighted, charged once
  const code = main.locator('.codes-code').first();
  await expect(code).toHaveText(/^\d{6}$/, { timeout: 15_000 });
  await expect(main.getByText(/WhatsApp/).filter({ hasText: /\d{3}-\d{3}/ })).toBeVisible();
  await main.getByRole('button', { name: /^(Copy code|复制验证码)$/ }).click();
  await expect(main.getByRole('status').filter({ hasText: /Code copied|验证码已复制/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
  await expect(page.getByTestId('codes-balance')).toContainText('4.7500');
  // while receiving, the rest of the page is locked: touching it asks to press Done first
  await main.getByRole('button', { name: /press Done first|请先点击完成/ }).click();
  await expect(page.getByRole('alertdialog')).toContainText(/press Done first|请先点击完成/);
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^(OK|确定)$/ })
    .click();
  // 'try another number' is off once an SMS came; Done gives the number back
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
  await expect(page.getByTestId('codes-balance')).toContainText('2.7500');
  // Recently used: the kept number, its SMS history, and receiving on it again
  await main.getByRole('tab', { name: /Recently used numbers|最近使用的号码/ }).click();
  await expect(main.getByRole('radio', { name: new RegExp(`\\+${lockedText}`) })).toBeChecked();
  await expect(main.getByText(/Subscribed|已订阅/).first()).toBeVisible();
  await expect(main.locator('.codes-history .codes-sms')).toHaveCount(1);
  await main.locator('.codes-tabpanel:not([inert]) .codes-agree').click();
  await main.getByRole('button', { name: /^(Receive code|接收验证码)$/ }).click();
  await expect(number).toHaveText(new RegExp(lockedText.slice(-4)));
  await expect(main.locator('.codes-receive .codes-code')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('codes-balance')).toContainText('2.5000');
  await main.getByRole('button', { name: /^(Done|完成)$/ }).click();
  await expect(number).toHaveCount(0);
  // the account's verification history: the subscription, with its charge
  await page.goto(page.url().replace('/verification', '/account/subscriptionHistory'));
  await expect(page.locator('.codes-history-row').first()).toContainText(/Subscribed|订阅/);
  await expect(page.locator('.codes-history-row').first()).toContainText('-$2.0000');
  await page.screenshot({ path: 'test-results/codes-history.png' });

  // numa: the new-code page; a text sent to the locked number is read and charged once
  const email2 = uniqueEmail('codes-numa');
  const token2 = await apiSignIn('numa', { email: email2 });
  await adminCommand('account', 'credit', email2, '1', '--note', 'e2e');
  await page.context().clearCookies();
  const page2 = await context.newPage();
  await openSignedIn(page2, null, token2, '/verification');
  const main2 = page2.getByRole('main');
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
  await expect(page2.getByTestId('codes-balance')).toContainText(/0\.[68]\d{3}/);
  await expect(main2.locator('.codes-sms')).toHaveCount(2, { timeout: 15_000 }); // the simulated app's own code too
  await expect(page2.getByTestId('codes-balance')).toContainText('0.6000');
  await page2.screenshot({ path: 'test-results/codes-numa.png' });
  // Done on a number that could be kept asks first; then it is under Number management
  await main2.getByRole('button', { name: 'Done', exact: true }).click();
  await page2.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await page2.getByRole('button', { name: 'Number management' }).click();
  await expect(page2.getByRole('row', { name: new RegExp(locked2) })).toContainText('Not subscribed');
  await page2.screenshot({ path: 'test-results/codes-numbers.png' });
});
