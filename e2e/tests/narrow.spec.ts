import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import {
  apiSignIn,
  expectAccessible,
  forgetCodeLimits,
  hostUrl,
  openSignedIn,
  rail,
  request,
} from './support';

/** Nothing of the page lies beyond the window's width (no sideways scrolling, WCAG 1.4.10). */
async function fitsWidth(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

/** demo1 signed in on `path` in a 320 px window (1280 px at 400 % zoom), and a screenshot helper. */
async function narrowDemo(browser: Browser, testInfo: TestInfo, path: string) {
  const email = 'demo1@numa.test';
  await forgetCodeLimits(email);
  const token = await apiSignIn('numa', { email });
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await openSignedIn(page, null, token, path);
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  return { token, context, page, shot };
}

test('a 320 px window (1280 px at 400 % zoom): chats, contacts and account show one pane at a time, with a back button', async ({
  browser,
}, testInfo) => {
  // demo1 has numbers; it writes to a number no other test uses
  const { token, context, page, shot } = await narrowDemo(browser, testInfo, '/chats');

  // Chats: the list fills the window; a new message replaces it; the message box is in view
  const list = page.getByRole('complementary', { name: 'Chats' });
  await expect(list.getByRole('button', { name: 'New SMS' })).toBeInViewport({ ratio: 1 });
  await list.getByRole('button', { name: 'New SMS' }).click();
  await expect(list).toBeHidden();
  await page.getByRole('textbox', { name: 'To' }).fill('(415) 555-0177');
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeInViewport({ ratio: 1 });
  await fitsWidth(page);
  await box.click();
  await page.keyboard.type('Hello from a narrow window');
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { name: '+1 415 555 0177' });
  await expect(heading).toBeVisible();
  await expect(page.getByTestId('message').filter({ hasText: 'Hello from a narrow window' })).toBeVisible();
  await expect(box).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeInViewport({ ratio: 1 });
  await fitsWidth(page);
  await expectAccessible(page, 'a conversation at 320 px');
  await shot('conversation-320-en');
  // back to the list, and into the chat again
  await page.getByRole('button', { name: 'Back to Chats' }).click();
  await expect(heading).toBeHidden();
  const row = list.getByRole('list', { name: 'Chats' }).getByRole('button', { name: /415 555 0177/ });
  await expect(row).toBeInViewport();
  await expect(row).toBeFocused(); // the focus goes back to the chat it came from
  await fitsWidth(page);
  await shot('chat-list-320-en');
  await row.click();
  await expect(heading).toBeVisible();
  // the window of the zoomed 1280 × 800 screen: 320 × 200; the box is still there to type in
  await page.setViewportSize({ width: 320, height: 200 });
  await box.scrollIntoViewIfNeeded();
  await expect(box).toBeInViewport();
  await box.click();
  await page.keyboard.type('still reachable');
  await expect(box).toHaveText('still reachable');
  await page.setViewportSize({ width: 320, height: 640 });

  // Contacts: the list (Add contact above it), then a contact with a back button
  await rail(page).getByRole('button', { name: 'Contacts' }).click();
  await page
    .getByRole('navigation', { name: 'Contacts' })
    .getByRole('button', { name: 'Add contact' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Add contact' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Narrow Nora');
  await dialog.getByRole('textbox', { name: 'Phone number' }).fill('(415) 555-0177');
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeInViewport({ ratio: 1 });
  await fitsWidth(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const panel = page.getByRole('complementary', { name: 'Narrow Nora' });
  await expect(panel).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Contacts', level: 2 })).toBeHidden();
  await expect(panel.getByRole('button', { name: 'Save' })).toBeVisible();
  await fitsWidth(page);
  await expectAccessible(page, 'a contact at 320 px');
  await shot('contact-320-en');
  await panel.getByRole('button', { name: 'Back to Contacts' }).click();
  await expect(panel).toBeHidden();
  const contactRow = page.getByTestId('contact-row').filter({ hasText: 'Narrow Nora' });
  await expect(contactRow).toBeInViewport();
  await expect(contactRow.getByRole('button', { name: 'Narrow Nora', exact: true })).toBeFocused();
  await fitsWidth(page);
  await shot('contacts-320-en');

  // Account: the menu, then a panel with a back button
  await rail(page).getByRole('button', { name: 'Account' }).click();
  const menu = page.getByRole('navigation', { name: 'Account menu' });
  await expect(menu).toBeInViewport();
  await menu.getByRole('button', { name: 'Profile' }).click();
  await expect(menu).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await fitsWidth(page);
  await expectAccessible(page, 'the profile panel at 320 px');
  await shot('profile-320-en');
  await page.getByRole('button', { name: 'Back to Account menu' }).click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Profile' })).toBeFocused();
  await menu.getByRole('button', { name: 'Recharge' }).click();
  await expect(page.getByRole('region', { name: 'Recharge' })).toBeVisible();
  await fitsWidth(page);

  // the same in Chinese
  await rail(page).getByRole('button', { name: 'Switch to Chinese' }).click();
  await expect(page.getByRole('button', { name: '返回账户菜单' })).toBeVisible();
  await shot('recharge-320-zh');
  // the chat left open is there again, with its way back to the list
  await rail(page).getByRole('button', { name: '聊天' }).click();
  await expect(page.getByRole('textbox', { name: '消息' })).toBeInViewport({ ratio: 1 });
  await fitsWidth(page);
  await shot('conversation-320-zh');
  await page.getByRole('button', { name: '返回聊天' }).click();
  await expect(
    page.getByRole('list', { name: '聊天' }).getByRole('button', { name: /Narrow Nora/ }),
  ).toBeVisible();
  await shot('chat-list-320-zh');
  await context.close();
  // leave demo1's address book as it was (other suites use the demo accounts)
  const book = await request('GET', '/web/getCloudAddressBook?pageSize=500', 'numa', undefined, token);
  const ids = (book.json.data.addressBookList as { id: string; addressBook: string }[])
    .filter((e) => (JSON.parse(e.addressBook) as { name: string }).name === 'Narrow Nora')
    .map((e) => e.id);
  expect(ids).toHaveLength(1);
  const deleted = await request(
    'POST',
    '/web/delCloudAddressBook',
    'numa',
    { platform: 'numa', ids: ids.join(',') },
    token,
  );
  expect(deleted.json.retcode).toBe(0);
});

test('a 320 px window: numbers show the menu, then one panel with a back button; verification, plans and bills fit the width', async ({
  browser,
}, testInfo) => {
  const { context, page, shot } = await narrowDemo(browser, testInfo, '/numbers');
  const tip = page.getByRole('dialog', { name: 'Get your own number' });
  await expect(tip).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();

  // Numbers: the menu fills the window; a panel replaces it, with a way back
  const menu = page.getByRole('navigation', { name: 'Numbers menu' });
  await expect(menu.getByRole('button', { name: '+ New number' })).toBeInViewport({ ratio: 1 });
  await fitsWidth(page);
  await menu.getByRole('button', { name: 'Number management' }).click();
  await expect(menu).toBeHidden();
  // each number's actions are in the window (the table's last column was off-screen)
  await expect(page.getByRole('button', { name: 'Unsubscribe +1 415 555 0101' })).toBeInViewport({
    ratio: 1,
  });
  await expect(page.getByRole('button', { name: 'Manage +1 415 555 0101' })).toBeInViewport({ ratio: 1 });
  await fitsWidth(page);
  await expectAccessible(page, 'number management at 320 px');
  await shot('number-management-320-en');
  // the plans page's header gives its title the row's width (it was squeezed to a letter a line)
  await page.getByRole('button', { name: 'See US cell phone plans' }).click();
  const title = page.getByRole('heading', { name: 'US cell phone plans' });
  await expect(title).toBeVisible();
  expect((await title.boundingBox())!.width).toBeGreaterThan(150);
  await fitsWidth(page);
  await page.getByRole('button', { name: 'Back to Numbers menu' }).click();
  await expect(menu).toBeVisible();
  // the plans are no item of the menu: the focus goes to its first button
  await expect(menu.getByRole('button', { name: '+ New number' })).toBeFocused();
  await menu.getByRole('button', { name: 'Subscription history' }).click();
  await page.getByRole('button', { name: 'Back to Numbers menu' }).click();
  await expect(menu.getByRole('button', { name: 'Subscription history' })).toBeFocused();

  // Verification: one column, the app list and the balance card in the window's width
  await rail(page).getByRole('button', { name: 'Verification' }).click();
  await expect(page.getByTestId('codes-balance')).toBeVisible();
  await fitsWidth(page);
  await shot('verification-320-en');

  // Bill history: a row's item keeps its width (it was squeezed to a letter a line by four columns)
  await page.goto(hostUrl(null, '/account/billHistory'));
  const row = page.getByRole('list', { name: 'Bill history' }).getByRole('listitem').first();
  await expect(row).toBeVisible();
  expect((await row.locator('.history-main').boundingBox())!.width).toBeGreaterThan(100);
  await fitsWidth(page);
  await shot('bill-history-320-en');
  await context.close();
});
