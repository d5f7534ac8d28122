import { expect, test } from '@playwright/test';
import { adminCommand, apiSignIn, hostUrl, openSignedIn, rail, request, uniqueUsPhone } from './support';

test('tops up by sandbox card: the new window’s Pay turns the dialog to finish and the balance changes live', async ({
  page,
}) => {
  const token = await apiSignIn('numa', { telCode: '1', phone: uniqueUsPhone() });
  await openSignedIn(page, null, token, '/account/credit');
  const panel = page.getByRole('region', { name: 'Recharge' });
  await expect(panel.getByTestId('recharge-balance')).toHaveText('0.0000 Coins');
  // the fifth preset is chosen; a custom amount outside 11–200 cannot be paid
  await expect(panel.getByRole('radio', { name: /^50\b/ })).toBeChecked();
  await panel.getByRole('radio', { name: /Custom/ }).check({ force: true });
  const custom = panel.getByRole('textbox', { name: /Custom amount/ });
  const pay = panel.getByRole('button', { name: 'Pay', exact: true });
  for (const outside of ['10.5', '201']) {
    await custom.fill(outside);
    await custom.blur();
    await expect(pay).toBeDisabled();
  }
  await expect(panel.getByText('Enter an amount from 11 to 200.')).toBeVisible();
  await custom.fill('20');
  await custom.blur();
  await expect(pay).toBeEnabled();
  // no custom amount with PayPal
  await panel.getByRole('radio', { name: 'PayPal' }).check({ force: true });
  await expect(panel.getByText('A custom amount is not available with PayPal.')).toBeVisible();
  await expect(pay).toBeDisabled();
  await panel.getByRole('radio', { name: 'Card' }).check({ force: true });

  // the profile's balance in another tab of the same session changes too, without a reload
  const other = await page.context().newPage();
  await other.goto(page.url().replace('/account/credit', '/account/profile'));
  await expect(other.getByTestId('balance')).toHaveText('0.0000 Coins');

  // the provider's page says Fail: the dialog says so and Try again opens a new payment
  let popup = page.waitForEvent('popup');
  await pay.click();
  const failed = await popup;
  await failed.getByRole('button', { name: 'Fail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment' });
  await expect(dialog.getByRole('alert')).toHaveText('The payment was not completed.');
  await failed.close();
  popup = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Try again' }).click();
  const provider = await popup;
  await provider.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(dialog.getByText('Payment successful')).toBeVisible();
  await provider.close();
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(panel.getByTestId('recharge-balance')).toHaveText('23.0000 Coins');
  await expect(other.getByTestId('balance')).toHaveText('23.0000 Coins');

  // the payment shows in Payment history and Bill history; an older month tab is empty
  await page
    .getByRole('navigation', { name: 'Account menu' })
    .getByRole('button', { name: 'Payment history' })
    .click();
  const payments = page.getByRole('region', { name: 'Payment history' });
  await expect(payments.getByTestId('payment-total')).toHaveText('Total: 1');
  await expect(payments.getByRole('listitem')).toContainText(['Card']);
  await expect(payments.getByRole('listitem').first()).toContainText('20.00 Coins');
  // a month tab change resets the list
  await payments.getByRole('tab').nth(1).click();
  await expect(payments.getByTestId('payment-total')).toHaveText('Total: 0');
  await page
    .getByRole('navigation', { name: 'Account menu' })
    .getByRole('button', { name: 'Bill history' })
    .click();
  const bills = page.getByRole('region', { name: 'Bill history' });
  await expect(bills.getByRole('listitem').first()).toContainText('+23.0000 Coins');
  await expect(bills.getByRole('listitem').first()).toContainText('Recharge');
  const tabs = bills.getByRole('tab');
  await expect(tabs).toHaveCount(4);
  await tabs.nth(1).click();
  await expect(bills.getByText('No bills this month.')).toBeVisible();
});

test('rates on numa and on cloudnumber in Chinese: tabs, every country, search', async ({ page }) => {
  const token = await apiSignIn('numa', { telCode: '1', phone: uniqueUsPhone() });
  await openSignedIn(page, null, token, '/account/rates');
  const rates = page.getByRole('region', { name: 'Rates' });
  await expect(rates.getByRole('tab')).toHaveText(['Make Call', 'Receive Call', 'SMS', 'Numbers']);
  await expect(rates.getByRole('tab', { name: 'Make Call' })).toHaveAttribute('aria-selected', 'true');
  await rates.getByRole('tab', { name: 'SMS' }).click();
  await rates.getByRole('searchbox', { name: 'Search by country' }).fill('canada');
  await expect(rates.getByRole('row')).toHaveCount(2);
  await expect(rates.getByRole('rowheader')).toHaveText(['Canada']);

  const cloudToken = await apiSignIn('cloudnumber', { telCode: '1', phone: uniqueUsPhone() });
  const cloud = await page.context().newPage();
  await openSignedIn(cloud, 'cloudnumber', cloudToken, '/account/rates');
  const zh = cloud.getByRole('region', { name: '资费' });
  await expect(zh.getByRole('tab')).toHaveText(['接听电话', '短信', '号码']);
  await expect(zh.getByRole('tab', { name: '接听电话' })).toHaveAttribute('aria-selected', 'true');
  await zh.getByRole('searchbox', { name: '按国家搜索' }).fill('美国');
  await expect(zh.getByRole('rowheader').first()).toContainText('美国');
  await expect(zh.getByRole('row').nth(1)).toContainText('0.80');
});

test('WeChat Pay shows a QR code and finishes; a crypto transfer takes two steps and a wrong amount is not credited', async ({
  page,
}) => {
  const token = await apiSignIn('wephone', { telCode: '1', phone: uniqueUsPhone() });
  await openSignedIn(page, 'wephone', token, '/account/credit');
  const panel = page.getByRole('region', { name: 'Recharge' });
  await expect(panel.getByTestId('recharge-balance')).toHaveText('$0.0000');
  await panel.getByRole('radio', { name: /^\$10(?!0)/ }).check({ force: true });
  await panel.getByRole('radio', { name: 'WeChat Pay' }).check({ force: true });
  // the provider is down for the first submit (the server's 200041): the payment submit error modal,
  // whose Try again sends it again
  await page.route(
    (url) => url.pathname === '/web/paySubmit',
    (route) =>
      route.fulfill({
        status: 400,
        json: {
          retcode: 200041,
          retmsg: 'Recharge is temporarily unavailable. Please try again later.',
          data: null,
        },
      }),
    { times: 1 },
  );
  await panel.getByRole('button', { name: 'Pay', exact: true }).click();
  const submitError = page.getByRole('alertdialog', { name: 'Payment failed' });
  await expect(submitError).toContainText('Recharge is temporarily unavailable. Please try again later.');
  await expect(submitError.getByRole('button', { name: 'Close' }).last()).toBeVisible();
  await submitError.getByRole('button', { name: 'Try again' }).click();
  const wechat = page.getByRole('dialog', { name: 'WeChat Pay' });
  await expect(wechat.getByRole('img', { name: 'WeChat Pay QR code' })).toBeVisible();
  const popup = page.waitForEvent('popup');
  await wechat.getByRole('link', { name: 'Open the payment page on this device' }).click();
  const provider = await popup;
  await provider.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(wechat.getByText('Payment successful')).toBeVisible();
  await provider.close();
  await wechat.getByRole('button', { name: 'OK' }).click();
  // $10 with its $1 bonus
  await expect(panel.getByTestId('recharge-balance')).toHaveText('$11.0000');

  // PayPal: its approval page (here the sandbox's, standing in for PayPal) opens in a new window
  await panel.getByRole('radio', { name: /^\$5\b/ }).check({ force: true });
  await panel.getByRole('radio', { name: 'PayPal' }).check({ force: true });
  const paypalTab = page.waitForEvent('popup');
  await panel.getByRole('button', { name: 'Pay', exact: true }).click();
  const paypal = await paypalTab;
  await paypal.getByRole('button', { name: 'Pay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment' });
  await expect(dialog.getByText('Payment successful')).toBeVisible();
  await paypal.close();
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(panel.getByTestId('recharge-balance')).toHaveText('$16.0000');

  await panel.getByRole('radio', { name: /^\$20/ }).check({ force: true });
  await panel.getByRole('radio', { name: 'Crypto transfer' }).check({ force: true });
  await panel.getByRole('button', { name: 'Pay', exact: true }).click();
  const crypto = page.getByRole('dialog', { name: 'Pay with crypto' });
  await expect(crypto.getByRole('button', { name: 'Next' })).toBeDisabled();
  await crypto.getByRole('radio', { name: 'USDC' }).check({ force: true });
  // USDC has no TRC-20 (spec 001 §5)
  await expect(crypto.getByRole('radio', { name: 'TRC-20' })).toHaveCount(0);
  await crypto.getByRole('radio', { name: 'ETH' }).check({ force: true });
  await expect(crypto.getByRole('radiogroup', { name: 'Network' })).toHaveCount(0);
  await crypto.getByRole('radio', { name: 'USDT' }).check({ force: true });
  await crypto.getByRole('radio', { name: 'TRC-20' }).check({ force: true });
  await crypto.getByRole('button', { name: 'Next' }).click();
  await expect(crypto.getByTestId('crypto-amount')).toHaveText('20.0000 USDT');
  await expect(crypto.getByRole('img', { name: 'Wallet address QR code' })).toBeVisible();
  const wallet = page.waitForEvent('popup');
  await crypto.getByRole('link', { name: 'Open the sandbox wallet to send it' }).click();
  const walletPage = await wallet;
  await walletPage.getByRole('button', { name: 'Send a different amount' }).click();
  await expect(walletPage.getByRole('status')).toContainText('HTTP 400');
  await walletPage.close();
  await crypto.getByRole('button', { name: 'Close' }).last().click();
  await expect(panel.getByTestId('recharge-balance')).toHaveText('$16.0000');

  // jiema has no chat socket: its balance still moves live when a payment is confirmed
  const jiemaToken = await apiSignIn('jiema', { telCode: '1', phone: uniqueUsPhone() });
  const jiema = await page.context().newPage();
  await openSignedIn(jiema, 'jiema', jiemaToken, '/verification');
  await expect(jiema.getByTestId('codes-balance')).toHaveText('$0.0000');
  const order = await request(
    'POST',
    '/web/paySubmit',
    'jiema',
    { platform: 'jiema', payment_method: 'creditCard', productid: 'card_web_usd_20' },
    jiemaToken,
  );
  const ref = new URL(order.json.data.paymentUrl as string).pathname;
  expect((await request('POST', `${ref}/pay`, 'jiema')).status).toBe(303);
  await expect(jiema.getByTestId('codes-balance')).toHaveText('$22.0000');
});

test('wetalk in Chinese: the banner ad where spec 001 places it, and a top-up from the numbers tab returns there', async ({
  page,
}) => {
  const picture = hostUrl('wetalk', '/favicon.svg');
  // the operator sets the brand's ad while the user signs in
  const [set, token] = await Promise.all([
    adminCommand(
      'ad',
      'set',
      '--brand',
      'wetalk',
      '--link',
      'https://ads.example/en',
      '--image',
      picture,
      '--link-cn',
      'https://ads.example/zh',
      '--image-cn',
      `${picture}?zh`,
    ),
    apiSignIn('wetalk', { telCode: '1', phone: uniqueUsPhone() }),
  ]);
  expect(set.stdout).toContain('Banner ad of wetalk set.');
  await openSignedIn(page, 'wetalk', token, '/verification?country=cn');
  // the new-code page's right column: balance, then the ad (Chinese picture and link)
  const side = page.getByRole('complementary', { name: '余额与帮助' });
  const ad = side.getByRole('link', { name: '广告' });
  await expect(ad).toHaveAttribute('href', 'https://ads.example/zh');
  await expect(ad.getByRole('img')).toHaveAttribute('src', `${picture}?zh`);

  // the numbers side column (step 2): the ad under the balance, which leads to Recharge
  await rail(page).getByRole('button', { name: '号码' }).click();
  await page.getByRole('button', { name: '下一步' }).click();
  const column = page.getByRole('complementary', { name: '余额与提示' });
  await expect(column.getByRole('link', { name: '广告' })).toHaveAttribute('href', 'https://ads.example/zh');
  await column.getByRole('button', { name: '余额：充值' }).click();
  const panel = page.getByRole('region', { name: '充值' });
  await expect(panel.getByRole('button', { name: '← 返回号码' })).toBeVisible();
  await panel.getByRole('radio', { name: /^\$10(?!0)/ }).check({ force: true });
  await panel.getByRole('radio', { name: '银行卡' }).check({ force: true });
  const popup = page.waitForEvent('popup');
  await panel.getByRole('button', { name: '支付', exact: true }).click();
  const provider = await popup;
  await provider.getByRole('button', { name: 'Pay', exact: true }).click();
  // the provider sends the payer back to the numbers tab (the order's return URL)
  await expect(provider.getByRole('link', { name: 'Return to WeTalk' })).toHaveAttribute(
    'href',
    hostUrl('wetalk', '/numbers'),
  );
  const dialog = page.getByRole('dialog', { name: '支付' });
  await expect(dialog.getByText('支付成功')).toBeVisible();
  await provider.close();
  await dialog.getByRole('button', { name: '完成' }).click();
  await expect(page).toHaveURL(/\/numbers/);
  // back at step 2 of New number, with the number still chosen (issue 20)
  await expect(page.getByRole('heading', { name: '选择套餐' })).toBeVisible();
  await expect(page.getByTestId('chosen-number')).toBeVisible();
});
