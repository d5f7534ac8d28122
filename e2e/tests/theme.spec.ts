import { expect, test, type Page } from '@playwright/test';
import { brands, visibleTabs, type BrandId } from '@numa/contract';
import {
  api,
  apiSignIn,
  captchaDrawn,
  dialogs,
  expectAccessible,
  forgetCodeLimits,
  hostUrl,
  openSignedIn,
  uniqueEmail,
} from './support';

/*
 * Dark mode (issue 22 §5): Light / Dark / System in the Account area, kept in this browser; System
 * follows the system's setting, live; the theme is right from the first paint (index.html's boot
 * script, allowed by its CSP hash); every brand, the plans page and the captcha pass axe in it.
 */

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

/**
 * Records the page's theme as the page is built: its value when the parser is done (readyState
 * "interactive", before any module script runs: only index.html's inline boot script in <head>
 * can have set it, before <body> was parsed, so before any paint), then every change until load.
 */
async function recordFirstPaintTheme(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __themes: (string | null)[] };
    w.__themes = [];
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      const root = document.documentElement;
      w.__themes.push(root.dataset.theme ?? null);
      new MutationObserver(() => {
        const t = root.dataset.theme ?? null;
        if (w.__themes.at(-1) !== t) w.__themes.push(t);
      }).observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    });
  });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return {
    history: () => page.evaluate(() => (window as unknown as { __themes: string[] }).__themes),
    violations,
  };
}

const bg = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const darkBg = 'rgb(17, 19, 24)';

test('the Account choice: System by default, Light and Dark kept across a reload, System followed live', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const token = await apiSignIn('numa', { email: uniqueEmail('theme') });
  await openSignedIn(page, null, token, '/account/profile');
  const group = page.getByRole('radiogroup', { name: 'Theme' });
  await expect(page.getByRole('heading', { name: 'Appearance' })).toBeVisible();
  await expect(group.getByRole('radio')).toHaveCount(3);
  await expect(group.getByRole('radio', { name: 'System' })).toBeChecked();
  expect(await theme(page)).toBe('light');

  await group.getByRole('radio', { name: 'Dark' }).check({ force: true });
  await expect.poll(() => theme(page)).toBe('dark');
  expect(await page.evaluate(() => localStorage.getItem('numa.theme'))).toBe('dark');
  expect(await bg(page)).toBe(darkBg);
  await expectAccessible(page, 'the profile in the dark theme');
  await page.screenshot({ path: 'test-results/dark-account-1280.png' });
  await page.setViewportSize({ width: 360, height: 740 });
  await group.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/dark-account-360.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.reload();
  await expect(group.getByRole('radio', { name: 'Dark' })).toBeChecked();
  expect(await theme(page)).toBe('dark');

  // the keyboard: arrows move through the group and choose
  await group.getByRole('radio', { name: 'Dark' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(group.getByRole('radio', { name: 'Light' })).toBeChecked();
  await expect(group.getByRole('radio', { name: 'Light' })).toBeFocused();
  await expect.poll(() => theme(page)).toBe('light');
  // Light wins over a dark system
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(group.getByRole('radio', { name: 'Light' })).toBeChecked();
  expect(await theme(page)).toBe('light');

  // System: the system's setting, followed as it changes (no reload)
  await group.getByRole('radio', { name: 'System' }).check({ force: true });
  await expect.poll(() => theme(page)).toBe('dark');
  expect(await page.evaluate(() => localStorage.getItem('numa.theme'))).toBeNull();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => theme(page)).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => theme(page)).toBe('dark');
});

test('in Chinese: 外观, 深色 kept across a reload (jiema)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const token = await apiSignIn('jiema', { email: uniqueEmail('theme-zh') });
  await openSignedIn(page, 'jiema', token, '/account/profile');
  const group = page.getByRole('radiogroup', { name: '主题' });
  await expect(page.getByRole('heading', { name: '外观' })).toBeVisible();
  const radios = group.getByRole('radio');
  await expect(radios).toHaveCount(3);
  for (const [i, name] of ['浅色', '深色', '跟随系统'].entries())
    await expect(radios.nth(i)).toHaveAccessibleName(name);
  await expect(group.getByRole('radio', { name: '跟随系统' })).toBeChecked();
  await group.getByRole('radio', { name: '深色' }).check({ force: true });
  await expect.poll(() => theme(page)).toBe('dark');
  await page.reload();
  await expect(group.getByRole('radio', { name: '深色' })).toBeChecked();
  expect(await theme(page)).toBe('dark');
  // the brand's own dark colours
  expect(
    await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--primary').trim(),
    ),
  ).toBe(brands.jiema.colorsDark.primary);
  await expectAccessible(page, "jiema's profile in the dark theme");
});

test('a dark system: the page is dark from the first paint, with no flash and no CSP violation', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  const rec = await recordFirstPaintTheme(page);
  // the login screen (no session) and, signed in, the chats screen
  await page.goto(hostUrl(null, '/login'));
  await expect(page.getByRole('button', { name: 'Get code' })).toBeVisible();
  expect(await rec.history()).toEqual(['dark']);
  expect(await bg(page)).toBe(darkBg);
  await expectAccessible(page, 'the login screen in the dark theme');

  const token = await apiSignIn('wephone', { email: uniqueEmail('theme-paint') });
  await openSignedIn(page, 'wephone', token, '/chats');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(await rec.history()).toEqual(['dark']);
  expect(
    await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--primary').trim(),
    ),
  ).toBe(brands.wephone.colorsDark.primary);
  expect(rec.violations).toEqual([]);

  // a Light choice wins over the dark system from the first paint too
  await page.evaluate(() => localStorage.setItem('numa.theme', 'light'));
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(await rec.history()).toEqual(['light']);
  expect(rec.violations).toEqual([]);
  await context.close();
});

for (const id of Object.keys(brands) as BrandId[]) {
  const first = visibleTabs(brands[id])[0]!;
  test(`${id}: its ${first} screen in the dark theme passes axe`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    const token = await apiSignIn(id, { email: uniqueEmail(`dark-${id}`) });
    const path = first === 'chats' ? '/chats' : first === 'verification' ? '/verification' : '/';
    await openSignedIn(page, id, token, path);
    await expect(page.getByRole('navigation', { name: /^(Main|主导航)$/ })).toBeVisible();
    await expect(page.locator('.spinner')).toHaveCount(0);
    expect(await theme(page)).toBe('dark');
    expect(
      await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--primary').trim(),
      ),
    ).toBe(brands[id].colorsDark.primary);
    await expectAccessible(page, `${id}'s ${first} screen`);
    await context.close();
  });
}

test('the chats screen with conversations, in the dark theme (screenshots at 1280 and 360 px)', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await forgetCodeLimits('demo1@numa.test');
  const token = await apiSignIn('numa', { email: 'demo1@numa.test' });
  // a conversation of demo1's (+1 415 555 0101): two texts in, one of them a code, and a reply
  const from = `1646555${String(Date.now() % 10000).padStart(4, '0')}`;
  for (const text of ['Hi, are you around tonight?', 'Your verification code is 482913'])
    expect(
      (
        await fetch(`${api}/dev/inbound`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ from, to: '14155550101', text }),
        })
      ).status,
    ).toBe(200);
  await openSignedIn(page, null, token, '/chats');
  const row = page.locator('.chat-row').first();
  await expect(row).toBeVisible();
  await row.click();
  await expect(page.locator('.bubble').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('Yes, see you at seven');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('.msg.out .bubble').last()).toContainText('see you at seven');
  await expectAccessible(page, 'a conversation in the dark theme');
  await page.screenshot({ path: 'test-results/dark-chats-1280.png' });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: 'test-results/dark-chats-360.png' });
  await page.goto(hostUrl(null, '/numbers'));
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.locator('.spinner')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/dark-numbers-360.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: 'test-results/dark-numbers-1280.png' });
  await expectAccessible(page, 'the numbers screen in the dark theme');
  await context.close();
});

test('the plans page in the dark theme, alone and in its frame', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  const rec = await recordFirstPaintTheme(page);
  const token = await apiSignIn('wetalk', { email: uniqueEmail('dark-plans') });
  await page.goto(hostUrl('wetalk', `/plans/?platform=wetalk&osType=pc&languagecode=en&token=${token}`));
  await expect(page.getByRole('heading', { name: 'Unlimited', exact: true })).toBeVisible();
  expect(await rec.history()).toEqual(['dark']);
  expect(rec.violations).toEqual([]);
  expect(await bg(page)).toBe('rgb(27, 30, 36)');
  await expectAccessible(page, 'the plans page in the dark theme');
  await page.screenshot({ path: 'test-results/dark-plans-1280.png' });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: 'test-results/dark-plans-360.png' });
  await context.close();
});

test('the captcha in the dark theme, in English and Chinese', async ({ browser }) => {
  for (const [brand, L] of [
    [null, { getCode: 'Get code', email: 'Email address', byEmail: 'Email' }],
    ['cloudnumber', { getCode: '获取验证码', email: '邮箱地址', byEmail: '邮箱' }],
  ] as const) {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(hostUrl(brand, '/login'));
    await page.getByRole('tab', { name: L.byEmail }).click();
    await page.getByRole('textbox', { name: L.email }).fill(uniqueEmail('dark-captcha'));
    const drawn = captchaDrawn(page);
    await page.getByRole('button', { name: L.getCode }).click();
    await drawn;
    const img = page.getByRole('dialog').locator('.captcha-image img');
    await expect(img).toBeVisible();
    expect(await theme(page)).toBe('dark');
    expect(await img.evaluate((el) => getComputedStyle(el).filter)).toContain('invert');
    await expectAccessible(page, `the captcha in the dark theme (${brand ?? 'numa'})`, dialogs);
    await page.screenshot({ path: `test-results/dark-captcha-${brand ?? 'numa'}-1280.png` });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: `test-results/dark-captcha-${brand ?? 'numa'}-360.png` });
    await context.close();
  }
});
