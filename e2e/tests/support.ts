import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type Page, type Response } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { CaptchaImage, PowChallenge } from '@numa/contract';

export const PORT = Number(process.env.E2E_PORT ?? 8091);
/** The server, reached directly by the test (Node may not resolve *.localhost). */
export const api = `http://127.0.0.1:${PORT}`;
/** A brand's host; Chromium sends every *.localhost name to 127.0.0.1. */
export const hostUrl = (brand: string | null, path = '/') =>
  `http://${brand ? `${brand}.` : ''}localhost:${PORT}${path}`;

let seq = 0;
export const uniqueEmail = (tag: string) =>
  `${tag}.${Date.now().toString(36)}${(seq++).toString(36)}@example.com`;
/** A valid US number no other test uses. */
export const uniqueUsPhone = () => `415555${String((Date.now() + seq++) % 10000).padStart(4, '0')}`;

export async function outboxCode(to: string): Promise<string> {
  const res = await fetch(`${api}/dev/outbox?to=${encodeURIComponent(to)}`);
  const { messages } = (await res.json()) as { messages: { code: string }[] };
  if (!messages[0]) throw new Error(`nothing sent to ${to}`);
  return messages[0].code;
}

/** Solves the captcha modal the way a person would: reads the picture's answer from the dev route. */
export async function solveCaptcha(page: Page, captchaResponse: Promise<Response>) {
  const res = await captchaResponse;
  const captchaId = new URL(res.url()).searchParams.get('captchaId')!;
  const answer = (await (await fetch(`${api}/dev/captcha?captchaId=${captchaId}`)).json()) as {
    text: string;
  };
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill(answer.text);
  await dialog.getByRole('button', { name: /confirm|确认/i }).click();
}

export const captchaDrawn = (page: Page) => page.waitForResponse((r) => r.url().includes('/web/genCaptcha'));

/** Signs in through the login screen by e-mail; the code is read from the dev outbox. */
export async function signInByEmail(page: Page, email: string, lang: 'en' | 'zh' = 'en') {
  const L =
    lang === 'en'
      ? { byEmail: 'Email', email: 'Email address', getCode: 'Get code' }
      : { byEmail: '邮箱', email: '邮箱地址', getCode: '获取验证码' };
  await page.getByRole('tab', { name: L.byEmail }).click();
  await page.getByRole('textbox', { name: L.email }).fill(email);
  const before = await outboxCount(email);
  const drawn = captchaDrawn(page);
  await page.getByRole('button', { name: L.getCode }).click();
  await solveCaptcha(page, drawn);
  // the send follows the captcha's proof of work: wait for this code, not an earlier one
  await expect.poll(() => outboxCount(email), { timeout: 20_000 }).toBeGreaterThan(before);
  await typeCode(page, await waitForCode(email));
}

export async function waitForCode(to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    try {
      return await outboxCode(to);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`no code for ${to}`);
}

export async function typeCode(page: Page, code: string) {
  const first = page.getByRole('textbox', { name: /^(Digit 1 of|第 1 位)/ });
  await expect(first).toBeFocused();
  await page.keyboard.type(code);
}

export const rail = (page: Page) => page.getByRole('navigation', { name: /^(Main|主导航)$/ });

import http from 'node:http';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw answers of any call
type AnyJson = any;

/** A raw call to the server as if from a brand's host (Node's fetch cannot set Host). */
export function request(
  method: string,
  path: string,
  brand: string | null,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: AnyJson }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method,
        path,
        headers: {
          host: `${brand ? `${brand}.` : ''}localhost:${PORT}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          ...(token ? { 'auth-token': token } : {}),
        },
      },
      (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: data ? JSON.parse(data) : null }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Works out a captcha drawing's proof of work as the web client's worker does (altcha-lib). */
export async function solvePow(challenge: PowChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('proof of work not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Signs in without the UI (for tests about what comes after): returns the token. */
export async function apiSignIn(
  brand: string,
  address: { email: string } | { telCode: string; phone: string },
): Promise<string> {
  const captchaId = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const drawn = (await request('GET', `/web/genCaptcha?captchaId=${captchaId}`, brand)).json as {
    data: CaptchaImage;
  };
  const { text } = (await request('GET', `/dev/captcha?captchaId=${captchaId}`, brand)).json as {
    text: string;
  };
  const pow = await solvePow(drawn.data.pow);
  const pre = await request('POST', '/web/preLogin', brand, {
    platform: brand,
    ...address,
    captchaId,
    inputCaptcha: text,
    pow,
  });
  if (pre.json.retcode !== 0) throw new Error(`preLogin: ${JSON.stringify(pre.json)}`);
  const to = 'email' in address ? address.email : `${address.telCode}${address.phone}`;
  const code = await waitForCode(to);
  const res = await request('POST', '/web/login', brand, { platform: brand, ...address, code });
  if (res.json.retcode !== 0) throw new Error(`login: ${JSON.stringify(res.json)}`);
  return res.json.data.token as string;
}

/** Opens a brand's host already signed in with a token. */
export async function openSignedIn(page: Page, brand: string | null, token: string, path = '/') {
  await page.addInitScript((t) => {
    if (!window.sessionStorage.getItem('e2e-token-set')) {
      window.localStorage.setItem('numa.token', t);
      window.localStorage.setItem('numa.token.at', String(Date.now()));
      window.sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
  await page.goto(hostUrl(brand, path));
}

/** Forgets the 60 s / hourly code limits of an address (dev route), as if time had passed. */
export async function forgetCodeLimits(to: string) {
  await fetch(`${api}/dev/rate-limits?to=${encodeURIComponent(to)}`, { method: 'DELETE' });
}

export async function outboxCount(to: string): Promise<number> {
  const res = await fetch(`${api}/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { messages: unknown[] }).messages.length;
}

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run admin -- …` against the E2E server (handed to it over its admin socket). */
export function adminCommand(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      // the operator CLI of the same build the E2E server runs (dist/server.js): about a third of the
      // CPU of compiling the sources with tsx at every call, which under a loaded CI pushed specs
      // with several operator steps past their timeout
      ['apps/server/dist/admin.js', ...argv],
      {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', LOG_LEVEL: 'silent' },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Tops up through the real sandbox flow on a signed-in page: the Recharge panel, an amount (a preset
 * label such as '10', or a custom amount), a method (its label, Card by default), Pay; then the
 * provider's page in the new window, its Pay button, and the dialog's finish state. Returns the
 * provider window (closed) and leaves the Recharge panel open.
 */
export async function topUpInSandbox(
  page: Page,
  opts: { amount?: string; custom?: number; method?: string } = {},
) {
  if (!page.url().includes('/account/credit')) {
    await page.goto(new URL('/account/credit', page.url()).toString());
  }
  const panel = page.getByRole('region', { name: /^(Recharge|充值)$/ });
  if (opts.custom !== undefined) {
    await panel.getByRole('radio', { name: /Custom|自定义/ }).check({ force: true });
    await panel.getByRole('textbox', { name: /Custom amount|自定义金额/ }).fill(String(opts.custom));
  } else if (opts.amount) {
    await panel
      .getByRole('radio', { name: new RegExp(`^${opts.amount.replace('.', '\\.')}\\b`) })
      .check({ force: true });
  }
  await panel.getByRole('radio', { name: new RegExp(`^${opts.method ?? 'Card'}`) }).check({ force: true });
  const popup = page.waitForEvent('popup');
  await panel.getByRole('button', { name: /^(Pay|支付)$/ }).click();
  const provider = await popup;
  await provider.waitForURL(/\/pay\/sandbox\//);
  await provider.getByRole('button', { name: 'Pay', exact: true }).click();
  await provider.getByRole('button', { name: 'Send the notification again' }).waitFor();
  const dialog = page.getByRole('dialog', { name: /^(Payment|支付)$/ });
  await dialog.getByText(/Payment successful|支付成功/).waitFor();
  await provider.close();
  await dialog.getByRole('button', { name: /^(Finish|完成)$/ }).click();
  return provider;
}

/** The open dialogs (react-aria modals leave the page behind them inert): a scope for `expectAccessible`. */
export const dialogs = '[role="dialog"], [role="alertdialog"]';

/**
 * axe-core on what the page shows now (WCAG 2.x A/AA rules): no serious or critical violation. Call
 * it on every screen and dialog a test visits (issue 13 §3.14). `scope` (CSS selectors, e.g.
 * `dialogs`) checks only that part. Both themes (issue 22 §5): the page as it is with every rule, then
 * the other theme set in place (`data-theme` on <html>, no reload, as lib/theme.ts switches it) with
 * the rules a theme can change (its colours: contrast, links told apart from text), then back. The
 * other rules read the markup, which a theme does not touch; running them twice cost about a fifth
 * of a second per check.
 *
 * AxeBuilder sends axe's 0.5 MB source into the page twice on every call (about a second each time
 * on a loaded machine); here the page gets it once (until it navigates) and AxeBuilder a no-op
 * source, so a check costs only axe's run. Only violations are collected (no passes to serialise).
 */
export async function expectAccessible(page: Page, what = page.url(), scope?: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const run = async (rules?: string[]) => {
    let builder = new AxeBuilder({ page, axeSource: ';' })
      // legacy mode runs in the page itself: works for pages opened with browser.newPage() too
      .setLegacyMode(true)
      .options({ resultTypes: ['violations'] });
    builder = rules
      ? builder.withRules(rules)
      : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
    if (scope) builder = builder.include(scope);
    const { violations } = await builder.analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} — ${v.nodes
            .map((n) => `${n.html.slice(0, 100)} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`)
            .join('; ')}`,
      );
  };
  const first = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
  expect(await run(), `accessibility of ${what} (${first} theme)`).toEqual([]);
  const other = first === 'dark' ? 'light' : 'dark';
  await setTheme(page, other);
  try {
    expect(await run(themeRules), `accessibility of ${what} (${other} theme)`).toEqual([]);
  } finally {
    await setTheme(page, first);
  }
}

/** The axe rules (WCAG 2.x A/AA) whose outcome depends on colours alone. */
const themeRules = ['color-contrast', 'link-in-text-block'];

/** Sets `data-theme` on the page (and its frames of this origin) in place, and waits for a frame. */
async function setTheme(page: Page, theme: string) {
  await page.evaluate(async (theme) => {
    const docs = [
      document,
      ...Array.from(document.querySelectorAll('iframe')).map((f) => {
        try {
          return f.contentDocument;
        } catch {
          return null;
        }
      }),
    ];
    for (const d of docs) if (d?.documentElement) d.documentElement.dataset.theme = theme;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, theme);
}
