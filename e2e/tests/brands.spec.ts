import { expect, test } from '@playwright/test';
import { brands, formatMoney, visibleTabs, type BrandId } from '@numa/contract';
import { apiSignIn, expectAccessible, hostUrl, openSignedIn, rail, uniqueEmail } from './support';

const tabNames = {
  en: {
    chats: 'Chats',
    verification: 'Verification',
    numbers: 'Numbers',
    contacts: 'Contacts',
    tabAccount: 'Account',
  },
  zh: { chats: '聊天', verification: '验证码', numbers: '号码', contacts: '联系人', tabAccount: '账户' },
} as const;

for (const id of Object.keys(brands) as BrandId[]) {
  const brand = brands[id];
  test(`${id}: its tabs, colours, currency and language`, async ({ page }) => {
    const token = await apiSignIn(id, { email: uniqueEmail(id) });
    await openSignedIn(page, id, token, '/account/profile');
    const lang = brand.defaultLocale ?? 'en';
    const names = tabNames[lang];
    const nav = rail(page);
    await expect(nav.getByRole('button', { name: names.tabAccount })).toBeVisible();
    const shown = visibleTabs(brand);
    for (const tab of Object.keys(names) as (keyof typeof names)[]) {
      await expect(nav.getByRole('button', { name: names[tab], exact: true })).toHaveCount(
        shown.includes(tab) ? 1 : 0,
      );
    }
    // language switch hidden where the brand hides it
    await expect(nav.getByRole('button', { name: /Switch to|切换到/ })).toHaveCount(
      brand.hideLanguageSwitch ? 0 : 1,
    );
    // brand colour on the active rail item's background and in the theme
    const primary = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--primary').trim(),
    );
    expect(primary).toBe(brand.colors.primary);
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', brand.colors.primary);
    // the balance in the brand's unit and decimals
    await expect(page.getByTestId('balance')).toHaveText(formatMoney(brand, 0, lang));
    await expect(page).toHaveTitle(names.tabAccount);
    // the brand's colours keep their contrast (issue 13 §3.14)
    await expectAccessible(page, `${id}'s profile`);
  });
}

test('jiema: the applist front page lists apps and opens our public page of the app on Next', async ({
  page,
}) => {
  await page.goto(hostUrl('jiema'));
  await expect(page.getByRole('heading', { name: '接收验证码' })).toBeVisible();
  await expectAccessible(page, 'the jiema front page');
  await page.getByRole('searchbox', { name: '搜索应用' }).fill('微');
  await expect(page.getByRole('radio')).toHaveCount(2); // 微信, 微软
  await page.locator('.app-tile', { hasText: '微信' }).click();
  await expect(page.getByRole('radio', { name: '选择 微信' })).toBeChecked();
  await page.getByRole('button', { name: '下一步' }).click();
  // our own page for that app and country (CODES_PUBLIC_PAGE_URL), not a site we do not run
  await expect(page).toHaveURL(/\/receive\/wechat\/US$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('微信');
  await expectAccessible(page, "jiema's public page of an app");
});

test('the front page ignores a dead token (no alert)', async ({ page }) => {
  // a token the server does not know (signed out elsewhere, expired), kept from an earlier visit
  await page.addInitScript(() => {
    if (window.sessionStorage.getItem('dead-token-set')) return;
    window.sessionStorage.setItem('dead-token-set', '1');
    window.localStorage.setItem('numa.token', 'dead0000000000000000000000000000');
    window.localStorage.setItem('numa.token.at', String(Date.now()));
    window.localStorage.setItem('numa.flags', '{}');
  });
  await page.goto(hostUrl(null, '/front'));
  await expect(page.getByRole('heading', { name: 'A second number for texting, anywhere.' })).toBeVisible();
  await expectAccessible(page, 'the numa front page');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('numa sends phones to the mobile site; other brands show the mobile notice', async ({ browser }) => {
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  const ctx = await browser.newContext({ userAgent: iphone, viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await page.route('https://m.numa.app/**', (r) =>
    r.fulfill({ body: '<title>mobile site</title>', contentType: 'text/html' }),
  );
  await page.goto(hostUrl(null, '/login?ref=x'));
  await expect(page).toHaveURL('https://m.numa.app/?ref=x');
  await page.goto(hostUrl('wephone', '/login'));
  await expect(page.getByText(/Desktop browser required/)).toBeVisible();
  await expectAccessible(page, 'the mobile notice');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText(/Desktop browser required/)).toHaveCount(0);
  await ctx.close();
});
