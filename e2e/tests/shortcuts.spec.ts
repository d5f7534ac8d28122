import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, dialogs, expectAccessible, forgetCodeLimits, openSignedIn } from './support';

/*
 * Keyboard shortcuts (issue 22 §4), in English and Chinese: `?` lists every one (from the one
 * registry, lib/shortcuts.ts); search, new message, next / previous conversation, the message box,
 * Enter to send, Escape to close, a digit for each rail tab. Single keys never fire while typing in a
 * field, during an input method's composition or while a dialog is open; where a shortcut moves the
 * focus, the polite live region says where to. demo1 (+1 415 555 0101) writes to two numbers.
 */

const L = {
  en: {
    title: 'Keyboard shortcuts',
    actions: [
      'Search messages',
      'New message',
      'Next conversation',
      'Previous conversation',
      'Jump to the message box',
    ],
    search: 'Search messages',
    newSms: 'New SMS',
    message: 'Message',
    chat: (n: string) => `Conversation: ${n}`,
    goTo: (tab: string) => `Go to ${tab}`,
  },
  zh: {
    title: '键盘快捷键',
    actions: ['搜索消息', '新建消息', '下一个会话', '上一个会话', '跳到消息输入框'],
    search: '搜索消息',
    newSms: '新短信',
    message: '消息',
    chat: (n: string) => `会话：${n}`,
    goTo: (tab: string) => `前往${tab}`,
  },
};

const announced = (page: Page) => page.getByTestId('shortcut-announce');
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

async function send(page: Page, to: string, text: string) {
  await blur(page);
  await page.keyboard.press('n');
  await page.getByRole('textbox', { name: /^(To|收件人)$/ }).fill(to);
  await page.getByRole('textbox', { name: /^(Message|消息)$/ }).click();
  await page.keyboard.type(text);
  await expect(page.getByRole('button', { name: /^(Send|发送)$/ })).toBeEnabled();
  // Enter sends
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('message').filter({ hasText: text })).toBeVisible();
}

for (const lang of ['en', 'zh'] as const) {
  test(`keyboard shortcuts in ${lang === 'en' ? 'English' : 'Chinese'}: the ? list, search, new message, conversations, message box, tabs`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    const t = L[lang];
    await forgetCodeLimits('demo1@numa.test');
    const token = await apiSignIn('numa', { email: 'demo1@numa.test' });
    await page.addInitScript((l) => {
      window.localStorage.setItem('numa.lang', l);
      // the Numbers tab's first-visit tip (a dialog, during which shortcuts rightly wait) seen before
      window.localStorage.setItem('numa.numbersTipSeen', '1');
    }, lang);
    await openSignedIn(page, null, token, '/chats');
    await expect(page.getByRole('button', { name: t.newSms })).toBeVisible();

    // `?` lists every shortcut; Escape closes it
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: t.title });
    await expect(help).toBeVisible();
    for (const a of t.actions) await expect(help.getByText(a, { exact: true })).toBeVisible();
    const tabNames = await page.locator('.rail-tabs .rail-label').allTextContents();
    for (const name of tabNames) await expect(help.getByText(t.goTo(name), { exact: true })).toBeVisible();
    await expectAccessible(page, `the shortcuts dialog (${lang})`, dialogs);
    await page.screenshot({ path: testInfo.outputPath(`shortcuts-${lang}-1280.png`) });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: testInfo.outputPath(`shortcuts-${lang}-360.png`) });
    await page.setViewportSize({ width: 1280, height: 800 });
    // while the dialog is open, other shortcuts wait
    await page.keyboard.press('2');
    await expect(page.locator('.rail-tab[aria-current="page"] .rail-label')).toHaveText(tabNames[0]!);
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    // during an input method's composition nothing fires
    await page.evaluate(() =>
      document.body.dispatchEvent(
        new KeyboardEvent('keydown', { key: '?', bubbles: true, cancelable: true, isComposing: true }),
      ),
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // `/` focuses the search box and says so; typing there types (n is a letter, not New message)
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: t.search });
    await expect(search).toBeFocused();
    await expect(announced(page)).toHaveText(t.search);
    await page.keyboard.type('n?');
    await expect(search).toHaveValue('n?');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(search).toHaveValue('');

    // N opens a new message (Enter sends it); two conversations
    const tag = `${lang}-${Date.now().toString(36)}`;
    await send(page, '(415) 555-0102', `first ${tag}`);
    await send(page, '(415) 555-0188', `second ${tag}`);
    // in the message box, single keys type; Alt+↑ / Alt+↓ move between conversations from anywhere
    const box = page.getByRole('textbox', { name: t.message });
    await box.click();
    await page.keyboard.type('r1');
    await expect(box).toHaveText('r1');
    const selected = page.locator('.chat-row[aria-current="true"] .chat-row-title');
    await expect(selected).toHaveText('+1 415 555 0188');
    await page.keyboard.press('Alt+ArrowDown');
    await expect(selected).toHaveText('+1 415 555 0102');
    await expect(page.locator('.chat-row[aria-current="true"]')).toBeFocused();
    await expect(announced(page)).toHaveText(t.chat('+1 415 555 0102'));
    await page.keyboard.press('Alt+ArrowUp');
    await expect(selected).toHaveText('+1 415 555 0188');
    await expect(announced(page)).toHaveText(t.chat('+1 415 555 0188'));

    // R jumps to the message box
    await blur(page);
    await page.keyboard.press('r');
    await expect(page.getByRole('textbox', { name: t.message })).toBeFocused();
    await expect(announced(page)).toHaveText(t.message);

    // Ctrl+K works while typing (it types nothing)
    await page.keyboard.press('Control+k');
    await expect(search).toBeFocused();

    // a digit for each rail tab, in rail order
    for (let i = tabNames.length - 1; i >= 0; i--) {
      // (a screen may put the focus in its own field, where a digit types)
      await blur(page);
      await page.keyboard.press(String(i + 1));
      await expect(page.locator('.rail-tab[aria-current="page"] .rail-label')).toHaveText(tabNames[i]!);
      await expect(announced(page)).toHaveText(tabNames[i]!);
    }
  });
}
