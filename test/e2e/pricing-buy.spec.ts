/**
 * /pricing sells: a signed-out visitor picks a pack, signs in, lands on PayPal's approval page (the simulator's) for
 * exactly that pack, approves, and is back on /pricing with the credits added, as the page and the server say.
 */
import { expect, test, type Page } from '@playwright/test';
import { Messages } from '../../contract/errors';
import { CREDIT_PACKS, formatUsd } from '../../contract/packs';
import { WITHDRAWAL_CONSENT_TEXT } from '../../contract/payments';
import { createVerifiedUser, storedIdToken, submitLogin } from './support/accounts';

async function creditsOnServer(page: Page): Promise<number> {
  const token = await storedIdToken(page);
  const res = await page.request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { credits: number }).credits;
}

test('a signed-out visitor buys the 150 pack from /pricing: sign in, PayPal for that pack, back on /pricing with 150 credits', async ({ page }) => {
  const pack = CREDIT_PACKS.find((p) => p.credits === 150)!;
  const user = await createVerifiedUser();

  await page.goto('/pricing');
  // The page is prerendered: its links are the router's once the scripts have hydrated it.
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: `Buy ${pack.credits} credits for ${formatUsd(pack.cents)}` }).click();

  // The sign-in guard first: a browser that never signed in is offered Sign up; Log in from there comes back to the purchase.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
  await page.getByRole('link', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
  await submitLogin(page, user);

  // The purchase asks for the withdrawal consent first (the box starts unticked), then goes to PayPal's approval page.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Buy ${pack.credits} credits for ${formatUsd(pack.cents)}`);
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();
  await expect(page.getByRole('alert')).toHaveText(Messages.withdrawalConsentRequired);
  await page.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }).check();
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();
  await expect(page).toHaveURL(/\/checkoutnow\?token=[A-Z0-9]+$/);
  await expect(page.getByRole('heading', { name: 'Pay Framewright' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: `${formatUsd(pack.cents)} USD` }).last()).toBeVisible();
  await page.getByRole('button', { name: 'Pay now' }).click();

  // Back where the pack was chosen, with the server's word on the order, and the query cleared.
  await expect(page.getByText(new RegExp(`^Payment successful! ${pack.credits} credits added to user `))).toBeVisible();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Monthly plans and credit packs');
  expect(await creditsOnServer(page)).toBe(10 + pack.credits);
});

test('an unknown pack on /buy says so and leads back to the packs', async ({ page }) => {
  const user = await createVerifiedUser();
  await page.goto('/buy?pack=pack-1&from=/pricing');
  await page.getByRole('link', { name: 'Log in' }).click();
  await submitLogin(page, user);
  await expect(page.getByRole('alert')).toHaveText('That credit pack does not exist. Please choose one of the packs.');
  await page.getByRole('link', { name: 'Back to the packs' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  expect(await creditsOnServer(page)).toBe(10);
});
