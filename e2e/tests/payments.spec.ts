import { expect, test } from '@playwright/test';
import { apiSignIn, openSignedIn, topUpInSandbox, uniqueUsPhone } from './support';

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
  await custom.fill('10.5');
  await custom.blur();
  await expect(panel.getByRole('button', { name: 'Pay', exact: true })).toBeDisabled();
  await custom.fill('20');
  await custom.blur();
  await expect(panel.getByRole('button', { name: 'Pay', exact: true })).toBeEnabled();

  // the profile's balance in another tab of the same session changes too, without a reload
  const other = await page.context().newPage();
  await other.goto(page.url().replace('/account/credit', '/account/profile'));
  await expect(other.getByTestId('balance')).toHaveText('0.0000 Coins');

  await topUpInSandbox(page, { custom: 20 });
  await expect(panel.getByTestId('recharge-balance')).toHaveText('23.0000 Coins');
  await expect(other.getByTestId('balance')).toHaveText('23.0000 Coins');
});
