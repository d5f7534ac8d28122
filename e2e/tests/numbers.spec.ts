import { expect, test } from '@playwright/test';
import {
  adminCommand,
  apiSignIn,
  expectAccessible,
  forgetCodeLimits,
  openSignedIn,
  rail,
  request,
  topUpInSandbox,
  uniqueUsPhone,
} from './support';

/**
 * Numbers (issue 11): a new account with a verified phone and billing profile tops up in the sandbox,
 * rents a US number on a plan in the New number steps, sees it in Number management and the
 * subscription history, texts a demo account from it live, changes plan, turns on voicemail, gets a
 * simulated call whose voicemail (with its transcript) is in the chat, in Call history and in the
 * bills, and unsubscribes; then the Chinese screens, GB (no area code) and toll-free. axe on each
 * numbers screen.
 */
test('rent a number: top-up, steps, management, history, a text, plan change, voicemail, calls, bills, unsubscribe; Chinese screens', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const phone = uniqueUsPhone();
  const token = await apiSignIn('numa', { telCode: '1', phone });
  const profile = await request(
    'POST',
    '/web/updateProfile',
    null,
    {
      platform: 'numa',
      firstName: 'Ada',
      lastName: 'Lovelace',
      address: '1 Main St',
      city: 'Austin',
      province: 'TX',
      postalCode: '73301',
      country: 'United States',
      regionCode: 'US',
    },
    token,
  );
  expect(profile.json.retcode).toBe(0);
  expect((await adminCommand('review', 'approve', `+1${phone}`, 'profile')).stderr).toBe('');

  // top up 20 in the sandbox (23 with the bonus), then the Numbers tab
  await openSignedIn(page, null, token, '/account/credit');
  await topUpInSandbox(page, { custom: 20 });
  await rail(page).getByRole('button', { name: 'Numbers' }).click();
  // the first-open tip; the help button reopens it
  const tip = page.getByRole('dialog', { name: 'Get your own number' });
  await tip.getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('button', { name: 'How it works' }).click();
  await tip.getByRole('button', { name: 'Close' }).first().click();
  await expect(tip).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'New number' })).toBeVisible();
  // step 1: the first state and area code are chosen, and the first number of the area selected
  // the platform's own selects (a phone opens its native picker): the chosen option's text
  await expect(page.getByRole('combobox', { name: 'Country' }).locator('option:checked')).toHaveText(
    'United States (+1)',
  );
  await expect(page.getByRole('combobox', { name: 'Area code' })).toHaveValue('480');
  const list = page.getByRole('listbox', { name: 'Available numbers' });
  await expect(list.getByRole('option')).toHaveCount(10);
  const first = list.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expectAccessible(page, 'New number, step 1');
  const second = list.getByRole('option').nth(1);
  const chosen = (await second.textContent())!;
  await second.click();
  await page.getByRole('button', { name: 'Next' }).click();

  // step 2: plan group, price option, agreement, confirmation, result
  await expect(page.getByTestId('chosen-number')).toHaveText(chosen);
  await expect(page.getByTestId('numbers-balance')).toHaveText('23.0000 Coins');
  // react-aria radios: the input is visually hidden, its label takes the click
  await page.getByText('Pay As You Go', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Pay As You Go' })).toBeChecked();
  await page.getByText('Monthly', { exact: true }).click();
  await expect(page.getByRole('radio', { name: /Monthly/ })).toBeChecked();
  const subscribe = page.getByRole('button', { name: 'Subscribe' });
  await expect(subscribe).toBeDisabled();
  await page.getByText('I agree to the').click();
  await expect(page.getByRole('checkbox', { name: /I agree to the Terms of Service/ })).toBeChecked();
  await page.screenshot({ path: 'test-results/numbers-step2.png' });
  await expectAccessible(page, 'New number, step 2');
  await subscribe.click();
  const confirm = page.getByRole('dialog', { name: 'Confirm subscription' });
  await expect(confirm).toContainText('4.0900 Coins');
  await expectAccessible(page, 'the confirmation dialog');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  const result = page.getByRole('alertdialog', { name: 'Subscribed' });
  await expect(result).toContainText('is yours. It renews on');
  await result.getByRole('button', { name: 'OK' }).click();

  // number management lists it; the bill and history have it
  await expect(page.getByRole('heading', { name: 'Number management' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(chosen.replace(/\+/g, '\\+')) });
  await expect(row).toContainText('4.0900 Coins');
  await page.screenshot({ path: 'test-results/numbers-management.png' });
  await expectAccessible(page, 'Number management');
  await page.getByRole('button', { name: 'Subscription history' }).click();
  await expect(page.getByTestId('subs-total')).toHaveText('1 entry');
  await expect(page.getByRole('listitem').filter({ hasText: 'Subscribed' })).toContainText('-4.0900 Coins');
  await expectAccessible(page, 'Subscription history');

  // Chats has it as a sender: a text to a demo account arrives live
  const hello = `Hello from my new number ${Date.now().toString(36)}`;
  await rail(page).getByRole('button', { name: 'Chats' }).click();
  await page.getByRole('button', { name: 'New SMS' }).click();
  await page.getByRole('textbox', { name: 'To' }).fill('(415) 555-0101');
  await expect(page.getByRole('combobox', { name: 'From' })).toHaveValue(chosen);
  await page.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(hello);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(
    page.getByTestId('message').filter({ hasText: hello }).getByRole('img', { name: 'Sent' }),
  ).toBeVisible();
  await forgetCodeLimits('demo1@numa.test');
  const demo = await apiSignIn('numa', { email: 'demo1@numa.test' });
  const got = await request(
    'GET',
    `/web/getDialogList?ownFullNumber=14155550101&otherFullNumber=${chosen.replace(/\D/g, '')}`,
    null,
    undefined,
    demo,
  );
  expect(got.json.data.dialogList).toMatchObject([{ direction: 'in', text: hello }]);
  await rail(page).getByRole('button', { name: 'Numbers' }).click();

  // plan change, now: the unused month is taken off the new plan's price
  await page.getByRole('button', { name: 'Number management' }).click();
  await page.getByRole('button', { name: `Manage ${chosen}` }).click();
  await expect(page.getByRole('heading', { name: 'Change plan' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Pay As You Go · Monthly.*Current/ })).toBeDisabled();
  await page.getByText('Unlimited · Monthly', { exact: true }).click();
  await page.getByRole('button', { name: 'Change plan' }).click();
  const timing = page.getByRole('dialog', { name: 'When should the change take effect?' });
  await expect(timing.getByRole('radio', { name: /Immediately/ })).toBeChecked();
  await expect(timing.getByTestId('change-amount')).toHaveText('8.0000 Coins');
  await page.screenshot({ path: 'test-results/numbers-change.png' });
  await expectAccessible(page, 'the plan change timing dialog');
  await timing.getByRole('button', { name: 'Confirm' }).click();
  const changed = page.getByRole('alertdialog', { name: 'Plan changed' });
  await expect(changed).toContainText('Your number is now on Unlimited (Monthly).');
  await changed.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('radio', { name: /Unlimited · Monthly.*Current/ })).toBeDisabled();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('row', { name: new RegExp(chosen.replace(/\+/g, '\\+')) })).toContainText(
    '12.0900 Coins',
  );

  // Unlimited allows voicemail: Settings shows; a simulated call leaves a message in the chat and a call record
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Voicemail', { exact: true }).click();
  await expect(page.getByRole('switch', { name: /Voicemail/ })).toBeChecked();
  await expect(page.getByRole('switch', { name: /Forward calls/ })).not.toBeChecked();
  await expectAccessible(page, 'Settings');
  const called = await request('POST', '/dev/inbound-call', null, {
    from: '+1 415 555 0123',
    to: chosen,
    seconds: 61,
    message: 'Call me back about the lease',
  });
  expect(called.json.call).toMatchObject({ type: 'voicemail', billingDuration: 120, charge: -0.008 });
  await rail(page).getByRole('button', { name: 'Chats' }).click();
  await page.getByText('+1 415 555 0123').first().click();
  // the voicemail: its recording, and its transcript from speech-to-text
  const voicemail = page.getByTestId('message').filter({ has: page.locator('audio') });
  await expect(voicemail.locator('audio')).toBeAttached();
  await expect(voicemail).toContainText('Call me back about the lease');
  await rail(page).getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Call history' }).click();
  await expect(page.getByTestId('calls-total')).toHaveText('1 entry');
  await expect(page.getByRole('row', { name: /Voicemail · incoming/ })).toContainText('-0.0080 Coins');
  await page.screenshot({ path: 'test-results/numbers-calls.png' });
  await expectAccessible(page, 'Call history');
  // the bills: the rent, the plan change and the call
  await page
    .getByRole('navigation', { name: 'Account menu' })
    .getByRole('button', { name: 'Bill history' })
    .click();
  const bills = page.getByRole('region', { name: 'Bill history' }).getByRole('listitem');
  await expect(bills.filter({ hasText: 'Call' }).first()).toContainText('-0.0080 Coins');
  await expect(bills.filter({ hasText: 'Number rent' })).toHaveCount(2);
  await expect(bills.filter({ hasText: 'Number rent' }).last()).toContainText('-4.0900 Coins');
  await rail(page).getByRole('button', { name: 'Numbers' }).click();
  await page.getByRole('button', { name: 'Number management' }).click();

  // unsubscribe: kept until its payment date
  await page.getByRole('button', { name: `Unsubscribe ${chosen}` }).click();
  const sure = page.getByRole('alertdialog', { name: 'Unsubscribe this number?' });
  await expect(sure).toContainText('stays yours until');
  await sure.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText(/will be released on/)).toBeVisible();

  // the Chinese screens
  await rail(page)
    .getByRole('button', { name: /Switch to/ })
    .click();
  await page
    .getByRole('button', { name: /新号码/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: '新号码' })).toBeVisible();
  await expect(page.getByRole('listbox', { name: '可用号码' })).toBeVisible();
  await page.screenshot({ path: 'test-results/numbers-zh.png' });
  await expectAccessible(page, 'New number in Chinese');
  // GB: no province, no area code; toll-free: no province, its area codes
  await page.getByRole('combobox', { name: '国家' }).selectOption({ label: '英国 (+44)' });
  await expect(page.getByRole('combobox', { name: '省/州' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: '区号' })).toHaveCount(0);
  const gbFirst = page.getByRole('listbox', { name: '可用号码' }).getByRole('option').first();
  await expect(gbFirst).toContainText('+44 7');
  // rent it: GB's plans, in Chinese
  const gbNumber = (await gbFirst.textContent())!;
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(page.getByTestId('chosen-number')).toHaveText(gbNumber);
  await page.getByText('按量付费', { exact: true }).click();
  await page.getByText('月付', { exact: true }).click();
  await page.getByText('我同意').click();
  await expectAccessible(page, 'New number, step 2, in Chinese');
  await page.getByRole('button', { name: '订阅', exact: true }).click();
  const zhConfirm = page.getByRole('dialog', { name: '确认订阅' });
  await expect(zhConfirm).toContainText('5.9900');
  await zhConfirm.getByRole('button', { name: '确认' }).click();
  const zhResult = page.getByRole('alertdialog', { name: '订阅成功' });
  await expect(zhResult).toContainText(gbNumber.replace(/\s/g, ''));
  await zhResult.getByRole('button').first().click();
  await expect(page.getByRole('row', { name: new RegExp(gbNumber.replace(/\+/g, '\\+')) })).toBeVisible();
  await page.getByRole('button', { name: '新号码' }).first().click();
  await page.getByRole('combobox', { name: '国家' }).selectOption({ label: '美国/加拿大免费号码 (+1)' });
  await expect(page.getByRole('combobox', { name: '省/州' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: '区号' })).toHaveValue('800');
  await expect(page.getByRole('listbox', { name: '可用号码' }).getByRole('option').first()).toContainText(
    '+1 800',
  );
  // toll-free costs more than what is left: the insufficient-balance dialog, nothing rented
  await page.getByRole('button', { name: '下一步' }).click();
  await page.getByText('无限套餐', { exact: true }).click();
  await page.getByText('月付', { exact: true }).click();
  await page.getByText('我同意').click();
  await page.getByRole('button', { name: '订阅', exact: true }).click();
  await page.getByRole('dialog', { name: '确认订阅' }).getByRole('button', { name: '确认' }).click();
  await expect(page.getByRole('alertdialog', { name: '余额不足' })).toBeVisible();
  await page.screenshot({ path: 'test-results/numbers-zh-insufficient.png' });
  const mine = await request('GET', '/web/getVirtualPhoneList', null, undefined, token);
  expect(mine.json.data.virtualPhones).toHaveLength(2);
});
