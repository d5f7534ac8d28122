import { expect, test, type Page } from '@playwright/test';
import {
  adminCommand,
  api,
  apiSignIn,
  dialogs,
  expectAccessible,
  forgetCodeLimits,
  openSignedIn,
  request,
  uniqueEmail,
  uniqueUsPhone,
} from './support';

/*
 * Scheduled messages (issue 22 §2) in Chromium, in a fixed time zone: Send later from the composer
 * (a date and time in the user's zone, in the page's language), the conversation's list with Edit and
 * Cancel, the message going at its time (the dev route `/dev/scheduled/run` stands for the clock:
 * the server's own tests move a fake one), charged then; with too little balance it fails with
 * Recharge. English on numa, Chinese on wetalk, and the dialog on every other brand with chats.
 */
test.use({ timezoneId: 'America/Los_Angeles' });

const runDue = async (fromNumber: string) => {
  const res = await fetch(`${api}/dev/scheduled/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fromNumber }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sent: number }).sent;
};

/** A new account of a brand with a US number (and a balance when `coins`), signed in by API. */
async function account(brand: string, coins?: number) {
  const email = uniqueEmail(`sched-${brand}`);
  const token = await apiSignIn(brand, { email });
  const number = `1${uniqueUsPhone()}`;
  const assigned = await adminCommand('number', 'assign', email, `+${number}`, '--brand', brand);
  expect(assigned.stderr).toBe('');
  if (coins)
    expect((await adminCommand('account', 'credit', email, String(coins), '--brand', brand)).code).toBe(0);
  return { email, token, number };
}

const scheduledOf = async (brand: string, token: string, from: string, to: string) =>
  (
    await request(
      'GET',
      `/web/getScheduledMessages?fromNumber=${from}&toNumber=${to}&languagecode=en`,
      brand,
      undefined,
      token,
    )
  ).json.data.scheduled as { id: string; sendAt: number; status: string; text: string }[];

/** New SMS to a number, with a text in the box (the From number is the account's only one). */
async function newChat(page: Page, to: string, text: string, zh = false) {
  await page.getByRole('button', { name: zh ? '新短信' : 'New SMS' }).click();
  await page.getByRole('textbox', { name: zh ? '收件人' : 'To' }).fill(to);
  const box = page.getByRole('textbox', { name: zh ? '消息' : 'Message' });
  await box.click();
  await page.keyboard.type(text);
  return box;
}

test('Send later in English: scheduled in Los Angeles time, edited, one cancelled, the other goes and is charged then', async ({
  page,
}) => {
  const email = 'demo1@numa.test';
  await forgetCodeLimits(email);
  const token = await apiSignIn('numa', { email });
  const own = '14155550101';
  const to = `1646555${String(Date.now() % 10000).padStart(4, '0')}`;
  const stamp = Date.now().toString(36);
  const balance = async () =>
    (await request('GET', '/web/queryBalance?languagecode=en', 'numa', undefined, token)).json.data
      .balance as number;

  await openSignedIn(page, null, token, '/chats');
  await newChat(page, `(${to.slice(1, 4)}) ${to.slice(4, 7)}-${to.slice(7)}`, `See you at six ${stamp}`);
  const before = await balance();

  // the dialog: the text, a date and time one hour ahead, the user's time zone named
  await page.getByRole('button', { name: 'Send later' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send later' });
  await expect(dialog.getByRole('textbox', { name: 'Message' })).toHaveValue(`See you at six ${stamp}`);
  await expect(dialog.getByText(/Your time zone: .*America\/Los_Angeles/)).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Date and time' })).toBeVisible();
  await expectAccessible(page, 'the Send later dialog', dialogs);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: /^Scheduled for / })).toBeAttached();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveText('');

  // it shows in the conversation, nothing charged yet
  const list = page.getByRole('region', { name: 'Scheduled messages' });
  await expect(list.getByText(`See you at six ${stamp}`)).toBeVisible();
  const [first] = await scheduledOf('numa', token, own, to);
  expect(first!.status).toBe('waiting');
  const zoned = new Date(first!.sendAt).toLocaleString('en-US', { timeZone: 'America/Los_Angeles' });
  const inOneHour = new Date(Date.now() + 3_600_000).toLocaleString('en-US', {
    timeZone: 'America/Los_Angeles',
  });
  expect(zoned.slice(0, 10)).toBe(inOneHour.slice(0, 10));
  expect(await balance()).toBe(before);

  // Edit: the minute one up with the keyboard (one down at :59), and a new text. A segment wraps
  // within its field (11 PM one hour up is 12 AM of the same day, a time passed: the hour's arrow failed
  // this test for the hour before midnight in Los Angeles), and the time stays about an hour ahead.
  await list.getByRole('button', { name: /^Edit the message scheduled for / }).click();
  const edit = page.getByRole('dialog', { name: 'Change the scheduled message' });
  await edit.getByRole('textbox', { name: 'Message' }).fill(`See you at seven ${stamp}`);
  const up = new Date(first!.sendAt).getUTCMinutes() < 59;
  await edit.getByRole('spinbutton', { name: /minute/i }).focus();
  await page.keyboard.press(up ? 'ArrowUp' : 'ArrowDown');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(list.getByText(`See you at seven ${stamp}`)).toBeVisible();
  const [changed] = await scheduledOf('numa', token, own, to);
  expect(changed!.sendAt - first!.sendAt).toBe(up ? 60_000 : -60_000);

  // a second one, cancelled: it never goes
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.click();
  await page.keyboard.type(`Never mind ${stamp}`);
  await page.getByRole('button', { name: 'Send later' }).click();
  await page.getByRole('dialog', { name: 'Send later' }).getByRole('button', { name: 'Schedule' }).click();
  await expect(list.getByText(`Never mind ${stamp}`)).toBeVisible();
  await expectAccessible(page, 'a conversation with scheduled messages');
  await expect(list.getByRole('button', { name: /^Cancel the message scheduled for / })).toHaveCount(2);
  await list
    .getByRole('listitem')
    .filter({ hasText: `Never mind ${stamp}` })
    .getByRole('button', { name: /^Cancel the message scheduled for / })
    .click();
  await expect(list.getByText(`Never mind ${stamp}`)).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled message cancelled.' })).toBeAttached();

  // its time comes: it goes once, shows in the conversation, leaves the list, and is charged now
  expect(await runDue(own)).toBe(1);
  const log = page.getByRole('log');
  await expect(log.getByText(`See you at seven ${stamp}`)).toBeVisible();
  await expect(list).toBeHidden();
  await expect(log.getByText(`Never mind ${stamp}`)).toHaveCount(0);
  await expect.poll(balance).toBeLessThan(before);
  expect(await runDue(own)).toBe(0);
});

test('定时发送 in Chinese on wetalk: shown in Chinese, and with too little balance it fails with Recharge', async ({
  page,
}) => {
  const { token, number } = await account('wetalk');
  const to = `1646555${String((Date.now() + 7) % 10000).padStart(4, '0')}`;
  const stamp = Date.now().toString(36);
  await page.addInitScript(() => window.localStorage.setItem('numa.lang', 'zh'));
  await openSignedIn(page, 'wetalk', token, '/chats');
  await newChat(page, `(${to.slice(1, 4)}) ${to.slice(4, 7)}-${to.slice(7)}`, `明天见 ${stamp}`, true);

  await page.getByRole('button', { name: '定时发送' }).click();
  const dialog = page.getByRole('dialog', { name: '定时发送' });
  await expect(dialog.getByRole('textbox', { name: '消息' })).toHaveValue(`明天见 ${stamp}`);
  await expect(dialog.getByText(/您的时区：.*America\/Los_Angeles/)).toBeVisible();
  await expect(dialog.getByRole('group', { name: '日期和时间' })).toBeVisible();
  await expectAccessible(page, 'the Send later dialog in Chinese', dialogs);
  await dialog.getByRole('button', { name: '定时', exact: true }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole('region', { name: '定时消息' });
  await expect(list.getByText(`明天见 ${stamp}`)).toBeVisible();
  await expect(list.getByText(/^定时于 /)).toBeVisible();

  // its time comes with a balance of 0: not sent, with the reason and Recharge
  expect(await runDue(number)).toBe(1);
  await expect(list.getByText('未发送')).toBeVisible();
  await expectAccessible(page, 'a scheduled message that was not sent');
  await list.getByRole('button', { name: '充值' }).click();
  await expect(page).toHaveURL(/\/account\/credit/);
});

test('every brand with chats: Send later schedules, in English or Chinese', async ({ browser }) => {
  test.setTimeout(180_000);
  const brands: [string, 'en' | 'zh'][] = [
    ['wephone', 'zh'],
    ['wetalkpro', 'en'],
    ['cloudnumber', 'zh'],
  ];
  for (const [brand, lang] of brands) {
    const { token, number } = await account(brand);
    const to = `1646555${String((Date.now() + 13) % 10000).padStart(4, '0')}`;
    const zh = lang === 'zh';
    const context = await browser.newContext({ timezoneId: 'America/Los_Angeles' });
    const page = await context.newPage();
    await page.addInitScript((l) => window.localStorage.setItem('numa.lang', l), lang);
    await openSignedIn(page, brand, token, '/chats');
    await newChat(page, `(${to.slice(1, 4)}) ${to.slice(4, 7)}-${to.slice(7)}`, `${brand} later`, zh);
    await page.getByRole('button', { name: zh ? '定时发送' : 'Send later' }).click();
    const dialog = page.getByRole('dialog', { name: zh ? '定时发送' : 'Send later' });
    await dialog.getByRole('button', { name: zh ? '定时' : 'Schedule', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('region', { name: zh ? '定时消息' : 'Scheduled messages' }).getByText(`${brand} later`),
    ).toBeVisible();
    const [item] = await scheduledOf(brand, token, number, to);
    expect(item).toMatchObject({ status: 'waiting', text: `${brand} later` });
    await context.close();
  }
});
