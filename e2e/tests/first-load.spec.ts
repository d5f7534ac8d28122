import { expect, test } from '@playwright/test';
import { expectAccessible, hostUrl } from './support';

/**
 * Issue 13 §1: the login screen's first load stays within 170 KiB over the wire (brotli, headers
 * included), its assets come compressed and cached for a year, and nothing trips the page's CSP.
 * bench/first-load.ts measures the other screens and the throttled times.
 */
test('the login screen loads under 170 KiB, compressed and cacheable, with no CSP report', async ({
  page,
}) => {
  const cspReports: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspReports.push(m.text());
  });
  const responses: {
    url: string;
    encoding?: string;
    cache?: string;
    vary?: string;
    bytes: Promise<number>;
  }[] = [];
  page.on('response', (r) => {
    const h = r.headers();
    responses.push({
      url: r.url(),
      encoding: h['content-encoding'],
      cache: h['cache-control'],
      vary: h['vary'],
      bytes: r
        .request()
        .sizes()
        .then((s) => s.responseBodySize + s.responseHeadersSize),
    });
  });
  await page.goto(hostUrl(null, '/login'));
  await expect(page.getByRole('button', { name: 'Get code' })).toBeEnabled();
  await page.waitForLoadState('networkidle');

  const total = (await Promise.all(responses.map((r) => r.bytes))).reduce((a, b) => a + b, 0);
  const scripts = responses.filter((r) => /\/assets\/.+\.(js|css)$/.test(r.url));
  expect(scripts.length).toBeGreaterThan(0);
  for (const r of scripts) {
    expect(r.encoding, r.url).toBe('br');
    expect(r.cache, r.url).toBe('public, max-age=31536000, immutable');
    expect(r.vary, r.url).toMatch(/accept-encoding/i);
  }
  // what only later screens need is not fetched (their chunks carry these names)
  expect(
    responses
      .filter((r) => /AppShell|ChatsTab|qrcode|pinyin|libphonenumber|CaptchaModal/.test(r.url))
      .map((r) => r.url),
  ).toEqual([]);
  expect(
    total / 1024,
    `first load of the login screen: ${(total / 1024).toFixed(1)} KiB`,
  ).toBeLessThanOrEqual(170);
  expect(cspReports).toEqual([]);
  await expectAccessible(page, 'the login screen');

  // the phone tab fetches its picker and number rules when chosen, and works
  await page.getByRole('tab', { name: 'Phone' }).click();
  await expect(page.getByRole('combobox', { name: 'Country code' })).toBeVisible();
  await expectAccessible(page, 'the login screen, phone tab');
});
