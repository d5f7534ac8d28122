import { expect, test } from '@playwright/test';
import { apiSignIn, dialogs, expectAccessible, hostUrl, rail, request, uniqueEmail } from './support';

test('the token is replaced every 12 hours; a refused refresh removes it', async ({ page }) => {
  const email = uniqueEmail('refresh');
  const token = await apiSignIn('numa', { email });
  await page.clock.install();
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('numa.token', t);
      localStorage.setItem('numa.token.at', String(Date.now()));
      sessionStorage.setItem('seeded', '1');
    }
  }, token);
  await page.goto(hostUrl(null, '/account/profile'));
  await expect(page.getByTestId('balance')).toBeVisible();

  const refreshed = page.waitForResponse((r) => r.url().includes('/web/refreshToken'));
  // 12 hours and the up-to-30 s spread between tabs (useTokenRefresh)
  await page.clock.fastForward('12:00:31');
  expect((await (await refreshed).json()).retcode).toBe(0);
  const next = await page.evaluate(() => localStorage.getItem('numa.token'));
  expect(next).not.toBe(token);
  expect((await request('GET', '/web/queryBalance', null, undefined, next!)).json.retcode).toBe(0);

  // the account signs out elsewhere: the next refresh is refused and the token goes
  await request('POST', '/web/logout', null, { platform: 'numa' }, next!);
  const refused = page.waitForResponse((r) => r.url().includes('/web/refreshToken'));
  // 12 hours and the up-to-30 s spread between tabs (useTokenRefresh)
  await page.clock.fastForward('12:00:31');
  expect((await (await refused).json()).retcode).toBe(100012);
  await expect(page.getByRole('heading', { name: 'Log in to Numa' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('numa.token'))).toBeNull();
});

test('a suspended account is marked kicked, stays signed in and is told why', async ({ page }) => {
  const { adminCommand, openSignedIn } = await import('./support');
  const email = uniqueEmail('suspended');
  const token = await apiSignIn('numa', { email });
  await openSignedIn(page, null, token, '/account/profile');
  await expect(page.getByTestId('balance')).toBeVisible();
  expect((await adminCommand('account', 'suspend', email)).code).toBe(0);
  await page.reload();
  await expect(page.getByRole('alertdialog')).toContainText('suspended');
  await expectAccessible(page, 'the suspended alert', dialogs);
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'suspended' })).toBeVisible();
  await expectAccessible(page, 'the kicked banner', 'main');
  await expect(rail(page).getByRole('button', { name: 'Account' })).toBeVisible();
  expect((await adminCommand('account', 'restore', email)).code).toBe(0);
});
