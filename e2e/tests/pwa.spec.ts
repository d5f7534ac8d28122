import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import {
  apiSignIn,
  expectAccessible,
  forgetCodeLimits,
  hostUrl,
  openSignedIn,
  rail,
  request,
} from './support';

/**
 * The installable app (issue 23): the brand's manifest, the service worker's precache (a second
 * load takes every script and style from it), the offline app shell, and the Notifications panel
 * in English and Chinese, Chromium's installability verdict per brand, and a new build offered and
 * taken. One signed-in page for all of it.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;
test.beforeAll(async ({ browser }) => {
  await forgetCodeLimits('demo2@numa.test');
  const token = await apiSignIn('numa', { email: 'demo2@numa.test' });
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  page = await context.newPage();
  await openSignedIn(page, null, token, '/chats');
  await expect(page.getByRole('button', { name: 'New SMS' })).toBeVisible();
});
test.afterAll(async () => {
  await page?.context().close();
});

test('each brand has its manifest; the second load takes scripts and styles from the service worker', async () => {
  for (const [brand, name, lang] of [
    [null, 'Numa', 'en'],
    ['jiema', '接码', 'zh-CN'],
  ] as const) {
    const m = (await request('GET', '/manifest.webmanifest', brand)).json;
    expect(m).toMatchObject({ name, lang, display: 'standalone', start_url: '/' });
  }
  // the icons the manifest names load as PNG images of their size
  const icons = await page.evaluate(async () => {
    const m = (await (await fetch('/manifest.webmanifest')).json()) as {
      icons: { src: string; sizes: string }[];
    };
    return Promise.all(
      m.icons.map(async (i) => {
        const img = new Image();
        img.src = i.src;
        await img.decode();
        return { sizes: i.sizes, got: `${img.naturalWidth}x${img.naturalHeight}` };
      }),
    );
  });
  expect(icons.length).toBeGreaterThanOrEqual(3);
  for (const i of icons) expect(i.got).toBe(i.sizes);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');

  // the worker was registered after load; once it is active, a reload is served by it
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const assets: { url: string; fromWorker: boolean }[] = [];
  page.on('response', (r) => {
    if (/\/assets\/.+\.(js|css)$/.test(r.url()))
      assets.push({ url: r.url(), fromWorker: r.fromServiceWorker() });
  });
  await page.reload();
  await expect(page.getByRole('button', { name: 'New SMS' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((a) => !a.fromWorker).map((a) => a.url)).toEqual([]);
});

test('offline, a reload shows the app and its offline state, not the browser error page', async () => {
  await page.context().setOffline(true);
  try {
    await page.reload();
    // the app itself (its rail and its offline state), from the worker's cache
    await expect(page.locator('.app-offline')).toHaveText("You're offline. Reconnecting…");
    await expect(rail(page)).toBeVisible();
  } finally {
    await page.context().setOffline(false);
  }
  await expect(page.locator('.app-offline')).toBeHidden();
});

test('the Notifications panel: this device and the device list, in English and Chinese', async () => {
  await page.goto(hostUrl(null, '/account/notifications'));
  await expect(page.getByRole('heading', { name: 'Notifications', level: 2 })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Notifications on this device' })).toBeEnabled();
  await expect(page.getByRole('switch', { name: 'Show message text in notifications' })).toBeDisabled();
  await expect(page.getByText('No device gets notifications yet.')).toBeVisible();
  await expectAccessible(page, 'Notifications panel');

  await rail(page)
    .getByRole('button', { name: /Switch to/ })
    .click();
  await expect(page.getByRole('heading', { name: '通知', level: 2 })).toBeVisible();
  await expect(page.getByRole('switch', { name: '在本设备上接收通知' })).toBeVisible();
  await expect(page.getByText('还没有设备接收通知。')).toBeVisible();
  await expectAccessible(page, 'Notifications panel in Chinese');
  await rail(page)
    .getByRole('button', { name: /切换|Switch/ })
    .click();
});

test('Chromium finds the app installable on numa and jiema (its own check: Lighthouse 12 has none)', async () => {
  for (const brand of [null, 'jiema'] as const) {
    const p = await page.context().newPage();
    try {
      await p.goto(hostUrl(brand, '/login'));
      await p.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      const cdp = await p.context().newCDPSession(p);
      // the same verdict the browser's install button and Lighthouse's former installable-manifest
      // audit read: the manifest, its icons, the start URL and the worker
      // Playwright's contexts are off the record, which Chromium reports as `in-incognito` (no app
      // is installed from a private window): every other criterion must hold
      await expect
        .poll(
          async () =>
            (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
              .map((e) => e.errorId)
              .filter((id) => id !== 'in-incognito'),
          { message: `installability of ${brand ?? 'numa'}` },
        )
        .toEqual([]);
    } finally {
      await p.close();
    }
  }
});

test('a new build is offered ("a new version is available") and Reload runs it in the open tab', async () => {
  // a deployment changes the worker (its precache list names the new hashed files): here the built
  // sw.js gets a different last line, as the server would serve a new build's
  const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');
  const sw = path.join(dist, 'sw.js');
  const kept = { js: readFileSync(sw), br: readFileSync(`${sw}.br`), gz: readFileSync(`${sw}.gz`) };
  try {
    const next = Buffer.concat([kept.js, Buffer.from(`\n// build ${Date.now()}\n`)]);
    writeFileSync(sw, next);
    writeFileSync(`${sw}.br`, brotliCompressSync(next));
    writeFileSync(`${sw}.gz`, gzipSync(next));
    await page.goto(hostUrl(null, '/chats'));
    await expect(page.getByRole('button', { name: 'New SMS' })).toBeVisible();
    // the page asks for the worker at start: the new one installs and waits, and the page offers it
    const offer = page.getByText('A new version of the app is available.');
    await expect(offer).toBeVisible({ timeout: 20_000 });
    const controller = () => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    expect(await controller()).toContain('/sw.js');
    const waiting = () =>
      page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting));
    expect(await waiting()).toBe(true);
    // Reload: the new worker takes over and the tab reloads under it (no old scripts left running)
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await expect(page.getByRole('button', { name: 'New SMS' })).toBeVisible();
    await expect.poll(waiting).toBe(false);
    await expect(offer).toBeHidden();
  } finally {
    writeFileSync(sw, kept.js);
    writeFileSync(`${sw}.br`, kept.br);
    writeFileSync(`${sw}.gz`, kept.gz);
  }
});
