import { expect, test, type Page } from '@playwright/test';
import { brands } from '@numa/contract';
import { DEMO_PORT } from '../demo.config';
import { expectAccessible } from '../tests/support';

/*
 * A demo deployment (NODE_ENV=production, DEMO_MODE=1; issue 18 §1): every page says no real money
 * moves, in the page's language, as a named region in the brand's colour.
 */
const url = (brand: string | null, path = '/') =>
  `http://${brand ? `${brand}.` : ''}localhost:${DEMO_PORT}${path}`;
const banner = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The banner's colours as the page computes them, against the brand's. */
async function colours(page: Page) {
  return page.locator('.demo-banner, .plans-demo-banner').evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, color: s.color };
  });
}
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('the login page shows the demo banner in English and, switched, in Chinese', async ({ page }) => {
  await page.goto(url(null, '/login'));
  const en = banner(page, 'Demo: no real money');
  await expect(en).toBeVisible();
  await expect(en).toHaveText(
    'Demo: no real money. This is a demonstration site: payments are simulated and nothing is charged.',
  );
  expect(await colours(page)).toEqual({
    background: rgb(brands.numa.colors.primary),
    color: rgb(brands.numa.colors.onPrimary),
  });
  // above the page, taking no part of it away: the login form is still whole in the window
  await expect(page.getByRole('button', { name: 'Get code' })).toBeInViewport();
  await expectAccessible(page, 'the demo login page');

  await page.getByRole('button', { name: '中文 – Switch to Chinese' }).click();
  const zh = banner(page, '演示：不涉及真实资金');
  await expect(zh).toBeVisible();
  await expect(zh).toHaveText('演示站点：不涉及真实资金。 这是演示网站：支付均为模拟，不会产生任何费用。');
  await expect(en).toHaveCount(0);
});

test('the jiema front page and the plans page opened alone show it too', async ({ page }) => {
  await page.goto(url('jiema'));
  await expect(banner(page, '演示：不涉及真实资金')).toBeVisible();
  expect((await colours(page)).background).toBe(rgb(brands.jiema.colors.primary));

  await page.goto(url(null, '/plans/?platform=wetalk&osType=pc&languagecode=en'));
  await expect(banner(page, 'Demo: no real money')).toBeVisible();
  expect((await colours(page)).background).toBe(rgb(brands.wetalk.colors.primary));
});
