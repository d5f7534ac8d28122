import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { api, apiSignIn, expectAccessible, openSignedIn, rail, uniqueEmail } from './support';

/**
 * The Developer panel (issue 21): a key made and shown once works on /api/v1 and is refused once
 * revoked; a webhook endpoint on this machine gets the test event and its log says so; the panel
 * in English and Chinese passes axe.
 */
test('API keys and webhooks from the Developer panel, in English and Chinese', async ({ page }) => {
  const got: { headers: Record<string, unknown>; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/numa-events`;
  try {
    const token = await apiSignIn('numa', { email: uniqueEmail('developer') });
    await openSignedIn(page, null, token, '/account/developer');
    const panel = page.locator('.developer-panel');
    await expect(page.getByRole('heading', { name: 'Developer', level: 2 })).toBeVisible();
    await expect(page.getByText('No API keys yet.')).toBeVisible();

    // a key with a name and scopes, shown once
    await page.getByRole('textbox', { name: 'Key name' }).fill('CI bot');
    // react-aria's check boxes: the label is what a person clicks
    await panel.locator('label', { hasText: 'Verification codes' }).click();
    await expect(page.getByRole('checkbox', { name: 'Verification codes' })).toBeChecked();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await panel.getByLabel('The new API key').textContent())!.trim();
    expect(secret).toMatch(/^numa_sk_[A-Za-z0-9_-]{43}$/);
    const keys = page.getByRole('list', { name: 'Your API keys' });
    await expect(keys.getByRole('listitem')).toHaveCount(1);
    await expect(keys).toContainText('CI bot');
    await expect(keys).toContainText('Never used');
    await expect(keys).not.toContainText(secret);
    const balance = await fetch(`${api}/api/v1/balance`, { headers: { authorization: `Bearer ${secret}` } });
    expect(balance.status).toBe(200);
    await page.screenshot({ path: 'test-results/developer-key.png', fullPage: true });
    await expectAccessible(page, 'Developer panel with a new key');
    await page.getByRole('button', { name: 'Done' }).click();

    // a webhook endpoint on this machine (development allows http and loopback) and its test event
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(hookUrl);
    await panel.locator('label', { hasText: 'Balance low' }).click();
    await page.getByRole('textbox', { name: /Alert when the balance falls below/ }).fill('2');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const hooks = page.getByRole('list', { name: 'Your webhook endpoints' });
    await expect(hooks).toContainText(hookUrl);
    await hooks.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => got.length).toBe(1);
    expect(got[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ type: 'webhook.test' });
    const log = page.getByRole('table', { name: `Deliveries to ${hookUrl}` });
    await expect(log).toContainText('webhook.test');
    await expect(log).toContainText('Delivered');
    await expectAccessible(page, 'Developer panel with a webhook endpoint and its log');

    // Chinese
    await rail(page)
      .getByRole('button', { name: /Switch to/ })
      .click();
    await expect(page.getByRole('heading', { name: '开发者', level: 2 })).toBeVisible();
    await expect(page.getByRole('list', { name: '您的 API 密钥' })).toContainText('CI bot');
    await expect(page.getByRole('button', { name: '发送测试事件' })).toBeVisible();
    await page.screenshot({ path: 'test-results/developer-zh.png', fullPage: true });
    await expectAccessible(page, 'Developer panel in Chinese');

    // revoked: refused at once
    await page.getByRole('button', { name: '撤销 CI bot' }).click();
    await page.getByRole('button', { name: '立即撤销“CI bot”' }).click();
    await expect(page.getByText('还没有 API 密钥。')).toBeVisible();
    const after = await fetch(`${api}/api/v1/balance`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
