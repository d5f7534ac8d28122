import { expect, test } from '@playwright/test';
import { api, apiSignIn, expectAccessible, forgetCodeLimits, openSignedIn } from './support';

/*
 * Issue 22 (messaging people use all day), in one signed-in page: message search from the box above
 * the chat list (`/` and Ctrl+K), Chinese and English, and a result opening its conversation at the
 * message. demo1 (+1 415 555 0101) is seeded at the dev start; a stranger of this run texts it.
 */

const inbound = async (from: string, text: string) => {
  const res = await fetch(`${api}/dev/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from, to: '14155550101', text }),
  });
  expect(res.status).toBe(200);
};

test('search finds Chinese and English words, highlighted, and opens the message in place', async ({
  page,
}) => {
  const email = 'demo1@numa.test';
  await forgetCodeLimits(email);
  const token = await apiSignIn('numa', { email });
  const stamp = Date.now().toString(36);
  const from = `+1646555${String(Date.now() % 10000).padStart(4, '0')}`;
  await inbound(from, `Order zq${stamp} has shipped`);
  await inbound(from, `您的验证码是 4821，编号 ${stamp}`);
  for (let i = 0; i < 6; i++) await inbound(from, `filler ${i} ${stamp}`);

  await openSignedIn(page, null, token, '/chats');
  const box = page.getByRole('searchbox', { name: 'Search messages' });
  await expect(page.getByRole('list', { name: 'Chats' })).toBeVisible();

  // "/" focuses the box (not while typing), Chinese is found by any part of a text
  await page.locator('body').press('/');
  await expect(box).toBeFocused();
  await box.fill('验证码');
  const results = page.getByRole('list', { name: 'Search results' });
  const zh = results.getByRole('button', { name: new RegExp(`验证码是 4821，编号 ${stamp}`) });
  await expect(zh).toBeVisible();
  await expect(zh.locator('mark')).toHaveText('验证码');
  await expect(page.getByRole('status').filter({ hasText: /messages? (found|shown)/ })).toBeVisible();
  await expectAccessible(page, 'message search results');

  // Escape empties it and the chat list is back; Ctrl+K focuses it again
  await box.press('Escape');
  await expect(page.getByRole('list', { name: 'Chats' })).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+k');
  await expect(box).toBeFocused();
  await box.fill(`ZQ${stamp}`);
  const en = results.getByRole('button', { name: new RegExp(`Order zq${stamp} has shipped`) });
  await expect(en).toBeVisible();
  await expect(results.getByRole('button')).toHaveCount(1);

  // choosing it opens the chat at the message, marked and focused, with the newer ones loaded below
  await en.click();
  const found = page.locator('.msg-found');
  await expect(found).toContainText(`Order zq${stamp} has shipped`);
  await expect(found).toBeFocused();
  const log = page.getByRole('log');
  await expect(log.getByText(`验证码是 4821，编号 ${stamp}`)).toBeAttached();
  await expect(log.getByText(`filler 5 ${stamp}`)).toBeAttached();
  await expect(
    page.getByRole('status').filter({ hasText: 'The message you chose is highlighted.' }),
  ).toBeAttached();
  await expectAccessible(page, 'a conversation opened at a search result');
});

test('saved replies: added in the Account area, inserted from the composer with / in an empty box', async ({
  page,
}) => {
  const email = 'demo2@numa.test';
  await forgetCodeLimits(email);
  const token = await apiSignIn('numa', { email });
  const stamp = Date.now().toString(36);
  const name = `Hours ${stamp}`;
  await openSignedIn(page, null, token, '/account/templates');
  const panel = page.locator('.templates-panel');
  await expect(panel.getByRole('heading', { name: 'Saved replies' })).toBeVisible();
  await panel.getByRole('textbox', { name: 'Name' }).fill(name);
  await panel.getByRole('textbox', { name: 'Text' }).fill(`We open at 9 (${stamp}).`);
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('list', { name: 'Saved replies' })).toContainText(name);
  await expectAccessible(page, 'Account › Saved replies');

  // a chat of demo2: a stranger texted it
  const from = `+1646556${String(Date.now() % 10000).padStart(4, '0')}`;
  const res = await fetch(`${api}/dev/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from, to: '14155550102', text: `Are you open? ${stamp}` }),
  });
  expect(res.status).toBe(200);
  await page.goto(new URL('/chats', page.url()).toString());
  await page
    .getByRole('list', { name: 'Chats' })
    .getByRole('button', { name: new RegExp(stamp) })
    .click();
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.click();
  await page.keyboard.press('/');
  const menu = page.getByRole('menu', { name: 'Templates' });
  await expect(menu).toBeVisible();
  await menu.getByRole('menuitem', { name: new RegExp(name) }).click();
  await expect(box).toHaveText(`We open at 9 (${stamp}).`);
  await expect(box).toBeFocused();
});
