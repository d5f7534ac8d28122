import { expect, test } from '@playwright/test';
import { adminCommand, apiSignIn, expectAccessible, openSignedIn, uniqueEmail } from './support';

test('an operator credits a balance while the server runs; the user sees it', async ({ page }) => {
  const email = uniqueEmail('operator');
  const token = await apiSignIn('numa', { email });
  const credited = await adminCommand('account', 'credit', email, '3.5', '--note', 'e2e');
  expect(credited.stderr).toBe('');
  expect(credited.stdout).toContain('balance 0 → 3.5');
  await openSignedIn(page, null, token, '/account/profile');
  await expect(page.getByTestId('balance')).toHaveText('3.5000 Coins');
  await expectAccessible(page, 'the profile after a credit', 'main');
});
