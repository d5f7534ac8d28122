import { expect, test } from '@playwright/test';
import {
  apiSignIn,
  captchaDrawn,
  hostUrl,
  openSignedIn,
  rail,
  forgetCodeLimits,
  outboxCount,
  signInByEmail,
  solveCaptcha,
  typeCode,
  uniqueEmail,
  uniqueUsPhone,
  waitForCode,
  expectAccessible,
  dialogs,
} from './support';

test('sign in by e-mail on numa, switch language, reload and stay signed in, log out', async ({ page }) => {
  await page.goto(hostUrl(null));
  await expect(page.getByRole('heading', { name: 'Log in to Numa' })).toBeVisible();
  const email = uniqueEmail('numa-mail');
  await signInByEmail(page, email);

  const nav = rail(page);
  await expect(nav.getByRole('button', { name: 'Chats' })).toBeVisible();
  for (const tab of ['Verification', 'Numbers', 'Contacts', 'Account'])
    await expect(nav.getByRole('button', { name: tab })).toBeVisible();
  await expect(page).toHaveTitle('Chats');
  await expectAccessible(page, 'the chats screen without a number', 'main');

  await nav.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText('0.0000 Coins');

  // a signed-in screen has its h1 and passes axe (issue 13 §3.14, §3.18)
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeAttached();
  await expectAccessible(page, 'the profile panel');
  // the language button's name begins with what it shows (WCAG 2.5.3, issue 13 §3.17)
  await expect(nav.getByRole('button', { name: /^中文 – Switch to Chinese$/ })).toHaveText('中文');
  // a short window: Log out stays on the dark rail, which scrolls (issue 13 §3.16)
  await page.setViewportSize({ width: 1280, height: 480 });
  const railBox = (await nav.boundingBox())!;
  await nav.getByRole('button', { name: 'Log out' }).scrollIntoViewIfNeeded();
  const logoutBox = (await nav.getByRole('button', { name: 'Log out' }).boundingBox())!;
  expect(logoutBox.y + logoutBox.height).toBeLessThanOrEqual(railBox.y + railBox.height);
  expect(railBox.height).toBeLessThanOrEqual(480);
  await page.setViewportSize({ width: 1280, height: 800 });

  await nav.getByRole('button', { name: 'Switch to Chinese' }).click();
  await expect(nav.getByRole('button', { name: '账户' })).toBeVisible();
  await expect(nav.getByRole('button', { name: /^EN – 切换到英文$/ })).toHaveText('EN');
  await expect(page.getByRole('heading', { name: '个人资料' })).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText('0.0000 金币');

  await page.reload();
  await expect(rail(page).getByRole('button', { name: '账户' })).toBeVisible();
  await expect(page).toHaveURL(/\/account\/profile$/);
  await rail(page).getByRole('button', { name: '切换到英文' }).click();

  await rail(page).getByRole('button', { name: 'Log out' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Log out?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'the log-out confirmation', dialogs);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await rail(page).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Log in to Numa' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('numa.token'))).toBeNull();
});

test('sign in by phone on numa with the country-code selector', async ({ page }) => {
  // the country list is held back until the name is typed (a slow network): the popover opens on
  // its loading state and fills in place when the list arrives
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/countries/*.json', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(hostUrl(null, '/login'));
  await page.getByRole('tab', { name: 'Phone' }).click();
  const code = page.getByRole('combobox', { name: 'Country code' });
  await code.fill('Canada');
  await expect(page.getByRole('listbox').getByRole('status')).toHaveText('Loading…');
  release();
  await expect(page.getByRole('option', { name: /Canada/ })).toBeVisible();
  await expectAccessible(page, 'the country list', '[role="listbox"]');
  await page.getByRole('option', { name: /Canada/ }).click();
  const phone = uniqueUsPhone();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(phone);
  const drawn = captchaDrawn(page);
  await page.getByRole('button', { name: 'Get code' }).click();
  await solveCaptcha(page, drawn);
  await expect(page.getByText(`We sent a code to +1 ${phone}.`)).toBeVisible();
  const sent = await waitForCode(`1${phone}`);
  expect(sent).toMatch(/^\d{4}$/);
  await expect(page.getByRole('group', { name: 'Verification code' }).getByRole('textbox')).toHaveCount(4);
  await typeCode(page, sent);
  await expect(rail(page).getByRole('button', { name: 'Account' })).toBeVisible();
});

test('a wrong code clears the boxes; resend waits 60 s and asks for a captcha again', async ({ page }) => {
  await page.clock.install();
  await page.goto(hostUrl(null, '/login'));
  const email = uniqueEmail('wrong');
  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  const drawn = captchaDrawn(page);
  await page.getByRole('button', { name: 'Get code' }).click();
  await page.getByRole('dialog').getByRole('textbox').waitFor();
  await expectAccessible(page, 'the captcha', dialogs);
  await solveCaptcha(page, drawn);
  const right = await waitForCode(email);
  const wrong = right === '000000' ? '111111' : '000000';
  await typeCode(page, wrong);
  await expect(
    page.getByRole('alert').filter({ hasText: 'The verification code is incorrect.' }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveValue('');
  await expectAccessible(page, 'the code step with an error', 'main');
  await expect(page.getByText(/Resend code in \d+ s/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend code' })).toHaveCount(0);
  await page.clock.fastForward(61_000);
  // the server keeps its own 60 s: let it forget the first send, as an elapsed minute would
  await forgetCodeLimits(email);
  const again = captchaDrawn(page);
  await page.getByRole('button', { name: 'Resend code' }).click();
  await solveCaptcha(page, again);
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect.poll(() => outboxCount(email)).toBe(2);
  await typeCode(page, await waitForCode(email));
  await expect(rail(page).getByRole('button', { name: 'Account' })).toBeVisible();
});

test('signing straight back in after logout shows the resend wait before any captcha, counting down', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto(hostUrl(null, '/login'));
  const email = uniqueEmail('again');
  await signInByEmail(page, email);
  await rail(page).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Log in to Numa' })).toBeVisible();

  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await page.getByRole('button', { name: 'Get code' }).click();
  // the wait at once, with its seconds, and no captcha to solve for nothing
  const wait = page.getByText(/^You can ask for another code in \d+ s\.$/);
  await expect(wait).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Get code' })).toBeDisabled();
  await expectAccessible(page, 'the login screen with the resend wait', 'main');
  const seconds = async () => Number(/(\d+)/.exec((await wait.textContent()) ?? '')?.[1]);
  const first = await seconds();
  expect(first).toBeGreaterThan(30);
  expect(first).toBeLessThanOrEqual(60);
  await page.clock.fastForward(10_000);
  await expect.poll(seconds).toBeLessThanOrEqual(first - 9);
  await page.clock.fastForward(61_000);
  await expect(wait).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Get code' })).toBeEnabled();

  // the server keeps its own 60 s: let it forget the first send, as an elapsed minute would
  await forgetCodeLimits(email);
  const drawn = captchaDrawn(page);
  await page.getByRole('button', { name: 'Get code' }).click();
  await solveCaptcha(page, drawn);
  await expect.poll(() => outboxCount(email)).toBe(2);
  await typeCode(page, await waitForCode(email));
  await expect(rail(page).getByRole('button', { name: 'Account' })).toBeVisible();
});

test('jiema: Chinese by default, no language switch, sign in by e-mail and by phone', async ({
  page,
  browser,
}) => {
  await page.goto(hostUrl('jiema'));
  await expect(page.getByRole('button', { name: '登录' }).first()).toBeVisible();
  await page.getByRole('button', { name: '登录' }).first().click();
  await expect(page.getByRole('heading', { name: '登录 接码' })).toBeVisible();
  await expectAccessible(page, 'the jiema login screen');
  await expect(page.getByRole('button', { name: '切换到英文' })).toHaveCount(0);
  await signInByEmail(page, uniqueEmail('jiema'), 'zh');
  const nav = rail(page);
  await expect(nav.getByRole('button', { name: '验证码' })).toBeVisible();
  await expect(nav.getByRole('button', { name: '账户' })).toBeVisible();
  for (const hidden of ['聊天', '号码', '联系人'])
    await expect(nav.getByRole('button', { name: hidden })).toHaveCount(0);
  await expectAccessible(page, 'the jiema verification screen');

  const phonePage = await browser.newPage();
  await phonePage.goto(hostUrl('jiema', '/login'));
  await phonePage.getByRole('tab', { name: '手机' }).click();
  const phone = uniqueUsPhone();
  await phonePage.getByRole('textbox', { name: '手机号码' }).fill(phone);
  const drawn = captchaDrawn(phonePage);
  await phonePage.getByRole('button', { name: '获取验证码' }).click();
  await solveCaptcha(phonePage, drawn);
  await typeCode(phonePage, await waitForCode(`1${phone}`));
  await expect(rail(phonePage).getByRole('button', { name: '账户' })).toBeVisible();
  await phonePage.close();
});

test('a second sign-in elsewhere logs the first tab out with an alert', async ({ page, browser }) => {
  const email = uniqueEmail('twice');
  const token = await apiSignIn('numa', { email });
  await openSignedIn(page, null, token, '/account/profile');
  await expect(page.getByText(email).first()).toBeVisible();

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(hostUrl(null, '/login'));
  // the server allows another code 60 s after the last one: let it forget the first send
  await forgetCodeLimits(email);
  await signInByEmail(otherPage, email);
  await expect(rail(otherPage).getByRole('button', { name: 'Account' })).toBeVisible();

  // the first tab hears it at once over its socket: it is logged out and told why
  await expect(page.getByRole('alertdialog')).toContainText('logged in on another device');
  await expectAccessible(page, 'the signed-out-elsewhere alert', dialogs);
  await expect(page.getByRole('heading', { name: 'Log in to Numa' })).toBeVisible();
  await other.close();
});
