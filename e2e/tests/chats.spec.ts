import { deflateSync } from 'node:zlib';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { dialogs, expectAccessible, forgetCodeLimits, hostUrl, rail, signInByEmail } from './support';

/*
 * Chats end to end: the two demo accounts (seeded at the dev start: demo1 +1 415 555 0101,
 * demo2 +1 415 555 0102) text and send a picture to each other in two browser contexts.
 */

const A = { email: 'demo1@numa.test', number: /415 555 0101/ };
const B = { email: 'demo2@numa.test', number: /415 555 0102/ };

/** A real PNG of noise (about 1.9 MB): big enough that the client compresses it to JPEG first. */
function noisePng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  let seed = 7;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width * 3; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      raw[y * (width * 3 + 1) + 1 + x] = (x * 2 + y + (seed >> 16)) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Holds the server's send confirmations to a page while `hold` is on, so the pending state can be
 * seen (the real round trip takes a few milliseconds). Everything else passes through.
 */
async function confirmationGate(page: Page) {
  let holding = false;
  const held: (() => void)[] = [];
  await page.routeWebSocket(/\/webchat\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (
        holding &&
        typeof m === 'string' &&
        m.includes('"receiveMessage"') &&
        m.includes('"direction":"out"')
      )
        held.push(() => ws.send(m));
      else ws.send(m);
    });
  });
  return {
    hold: () => (holding = true),
    release: () => {
      holding = false;
      held.splice(0).forEach((send) => send());
    },
  };
}

async function signedInPage(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await forgetCodeLimits(email);
  await page.goto(hostUrl(null, '/login'));
  await signInByEmail(page, email);
  await expect(page.getByRole('button', { name: 'New SMS' })).toBeVisible();
  return { context, page };
}

const bubble = (page: Page, text: string | RegExp) => page.getByTestId('message').filter({ hasText: text });
const chatRow = (page: Page, number: RegExp) =>
  page.getByRole('list', { name: 'Chats' }).getByRole('button', { name: number });

/** The picture's bottom edge is inside the conversation pane (nothing of it cut off below). */
async function expectBottomShown(pane: Locator, img: Locator) {
  const p = (await pane.boundingBox())!;
  const i = (await img.boundingBox())!;
  expect(i.y + i.height).toBeLessThanOrEqual(p.y + p.height + 1);
}

/** A picture is shown when the browser decoded it. */
async function pictureLoaded(page: Page, message = page.getByTestId('message').last()) {
  const img = message.getByRole('img', { name: 'Picture' });
  await expect(img).toBeVisible();
  await expect
    .poll(() =>
      img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth),
    )
    .toBeGreaterThan(0);
}

test('two people text and send a picture in real time: pending → sent, unread, reply, reload, delete, offline', async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const a = await signedInPage(browser, A.email);
  const b = await signedInPage(browser, B.email);
  const gate = await confirmationGate(a.page);
  // routing applies to sockets opened from now on: A reconnects through the gate
  await a.page.reload();
  await expect(a.page.getByRole('button', { name: 'New SMS' })).toBeVisible();
  await expect(b.page).toHaveTitle('Chats');
  await expectAccessible(b.page, 'the chat list', 'main');

  // A writes to B's number from the new-chat form
  const hello = `Hello from A ${Date.now().toString(36)}`;
  await a.page.getByRole('button', { name: 'New SMS' }).click();
  await a.page.getByRole('textbox', { name: 'To' }).fill('(415) 555-0102');
  await expect(a.page.getByRole('combobox', { name: 'From' })).toHaveValue('+1 415 555 0101');
  await expectAccessible(a.page, 'the new-message form', 'main');
  const input = a.page.getByRole('textbox', { name: 'Message' });
  await input.click();
  await a.page.keyboard.type(hello);
  await a.page.keyboard.press('Shift+Enter');
  await a.page.keyboard.type('second line');
  // sending waits for the connection (the button is enabled once connected)
  await expect(a.page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  gate.hold();
  await a.page.keyboard.press('Enter');
  const sent = bubble(a.page, hello);
  await expect(sent.getByRole('status', { name: 'Sending' })).toBeVisible();
  await expect(sent).toContainText('second line');
  await expect(input).toHaveText('');
  gate.release();
  await expect(sent.getByRole('img', { name: 'Sent' })).toBeVisible();
  await expect(sent.getByRole('status', { name: 'Sending' })).toHaveCount(0);
  // the first send opened the chat
  await expect(a.page.getByRole('heading', { name: '+1 415 555 0102' })).toBeVisible();

  // then a picture (compressed to JPEG on a canvas first), in a window so low that the conversation is
  // longer than its pane: the view follows the picture as it gets its height (issue 13 §3.1)
  await a.page.setViewportSize({ width: 1280, height: 460 });
  const chooser = a.page.waitForEvent('filechooser');
  await a.page.getByRole('button', { name: 'Send a picture' }).click();
  await (await chooser).setFiles({ name: 'noise.png', mimeType: 'image/png', buffer: noisePng(900, 700) });
  const picture = a.page.getByTestId('message').last();
  await expect(picture.getByRole('img', { name: 'Sent' })).toBeVisible();
  await pictureLoaded(a.page, picture);
  const pane = a.page.getByRole('log');
  await expect
    .poll(() =>
      pane.evaluate(
        (el) => el.scrollHeight > el.clientHeight && el.scrollHeight - el.scrollTop - el.clientHeight,
      ),
    )
    .toBeLessThanOrEqual(2);
  await expectBottomShown(pane, picture.getByRole('img', { name: 'Picture' }));
  await a.page.setViewportSize({ width: 1280, height: 800 });

  // B got both live: an unread count on the chat, the rail and the page title
  const rowOnB = chatRow(b.page, A.number);
  await expect(rowOnB).toContainText('[Picture]');
  await expect(rowOnB.getByLabel('2 unread')).toHaveText('2');
  await expect(rail(b.page).getByLabel('2 unread')).toBeVisible();
  await expect(b.page).toHaveTitle('Chats (2)');
  await b.page.screenshot({ path: testInfo.outputPath('b-unread-en.png') });

  // B opens the chat: both messages, the count cleared; B replies
  await rowOnB.click();
  await expect(bubble(b.page, hello)).toBeVisible();
  await pictureLoaded(b.page);
  await expect(b.page).toHaveTitle('Chats');
  await expect(rowOnB.getByLabel(/unread/)).toHaveCount(0);
  await expectAccessible(b.page, 'a conversation with a picture', 'main');
  const reply = `Got it ${Date.now().toString(36)}`;
  const box = b.page.getByRole('textbox', { name: 'Message' });
  await box.click();
  // pasting rich text inserts its plain text only
  await box.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/html', `<b style="color:red">${text}</b><img src=x onerror="window.pwned=1">`);
    data.setData('text/plain', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, reply);
  await expect(box).toHaveText(reply);
  expect(await box.evaluate((el) => el.querySelector('b, img'))).toBeNull();
  // an emoji found by its name
  await b.page.getByRole('button', { name: 'Emoji' }).click();
  const picker = b.page.getByRole('dialog', { name: 'Emoji' });
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('thumbs up');
  await expect(picker.getByRole('button', { name: 'thumbs up', exact: true })).toBeVisible();
  await expectAccessible(b.page, 'the emoji picker', dialogs);
  await picker.getByRole('button', { name: 'thumbs up', exact: true }).click();
  await b.page.keyboard.press('Escape');
  await b.page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(box).toContainText('👍');
  await b.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(bubble(b.page, reply).getByRole('img', { name: 'Sent' })).toBeVisible();
  await expect(bubble(b.page, reply)).toContainText('👍');
  await expect(bubble(a.page, reply)).toBeVisible();
  await a.page.screenshot({ path: testInfo.outputPath('a-conversation-en.png') });

  // both languages
  await rail(b.page).getByRole('button', { name: 'Switch to Chinese' }).click();
  await expect(b.page.getByRole('button', { name: '新短信' })).toBeVisible();
  await expect(b.page.getByRole('textbox', { name: '消息' })).toBeVisible();
  await b.page.screenshot({ path: testInfo.outputPath('b-conversation-zh.png') });
  await rail(b.page).getByRole('button', { name: '切换到英文' }).click();

  // a reload keeps the history
  await a.page.reload();
  await chatRow(a.page, B.number).click();
  await expect(bubble(a.page, hello)).toBeVisible();
  await expect(bubble(a.page, reply)).toBeVisible();
  await pictureLoaded(
    a.page,
    a.page
      .getByTestId('message')
      .filter({ has: a.page.getByRole('img', { name: 'Picture' }) })
      .last(),
  );

  // A has the chat open at its bottom in a low window when B's picture comes in: the view follows the
  // picture as it gets its height, nothing is cut off (issue 13 §3.1)
  await a.page.setViewportSize({ width: 1280, height: 460 });
  const paneA = a.page.getByRole('log');
  await expect
    .poll(() => paneA.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
    .toBeLessThanOrEqual(2);
  const chooserB = b.page.waitForEvent('filechooser');
  await b.page.getByRole('button', { name: 'Send a picture' }).click();
  await (await chooserB).setFiles({ name: 'noise2.png', mimeType: 'image/png', buffer: noisePng(700, 900) });
  const incoming = a.page.getByTestId('message').last();
  await pictureLoaded(a.page, incoming);
  await expect
    .poll(() => paneA.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
    .toBeLessThanOrEqual(2);
  await expectBottomShown(paneA, incoming.getByRole('img', { name: 'Picture' }));
  await a.page.setViewportSize({ width: 1280, height: 800 });

  // the connection drops: the banner shows and sending waits; it comes back by itself
  await a.context.setOffline(true);
  await expect(a.page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
  await expectAccessible(a.page, 'the chats screen offline', 'main');
  await expect(a.page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await a.page.screenshot({ path: testInfo.outputPath('a-offline-en.png') });
  await a.context.setOffline(false);
  await expect(a.page.getByRole('status').filter({ hasText: "You're offline" })).toHaveCount(0);
  // the socket is back (the browser's "online" comes first): the message box asks for a message again
  await expect(a.page.getByRole('textbox', { name: 'Message' })).toHaveAttribute(
    'aria-placeholder',
    'Type a message',
  );

  // a number the carrier cannot reach: the alert says the spec's words, never the carrier's internal
  // reason (issue 13 §3.9), and the failed bubble is readable (§3.10: axe's contrast rule)
  await a.page.getByRole('button', { name: 'New SMS' }).click();
  await a.page.getByRole('textbox', { name: 'To' }).fill('+61 400 000 000');
  // the number is read (its country found, the international notice shown) before the message goes
  await expect(a.page.getByRole('status').filter({ hasText: 'International rates may apply' })).toBeVisible();
  await a.page.getByRole('textbox', { name: 'Message' }).fill('to nowhere');
  await a.page.getByRole('button', { name: 'Send', exact: true }).click();
  const failedAlert = a.page.getByRole('alertdialog');
  await expect(failedAlert).toContainText('The message could not be sent.');
  await expect(failedAlert).not.toContainText(/unreachable|6140/);
  await failedAlert.getByRole('button', { name: 'OK' }).click();
  await expect(bubble(a.page, 'to nowhere')).toBeVisible();
  await expectAccessible(a.page, 'a conversation with a failed message');

  // delete the chat, with its confirmation; it stays gone after a reload
  await chatRow(a.page, B.number).click({ button: 'right' });
  await a.page.getByRole('menuitem', { name: 'Delete chat' }).click();
  const confirm = a.page.getByRole('alertdialog', { name: 'Delete this chat?' });
  await expect(confirm).toContainText('+1 415 555 0102');
  await expectAccessible(a.page, 'the delete-chat confirmation', dialogs);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(chatRow(a.page, B.number)).toHaveCount(0);
  await a.page.reload();
  await expect(a.page.getByRole('button', { name: 'New SMS' })).toBeVisible();
  await expect(a.page.getByText('Loading chats…')).toHaveCount(0);
  await expect(chatRow(a.page, B.number)).toHaveCount(0);
  // B's copy is B's own
  await b.page.reload();
  await expect(chatRow(b.page, A.number)).toBeVisible();

  await a.context.close();
  await b.context.close();
});
