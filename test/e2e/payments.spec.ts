/**
 * Buying credits in Chromium, through the real UI, our API and the PayPal simulator's approval page: from
 * My Account > Buy Credits to PayPal and back to My Account, with the balance read from the page and from the API.
 * (The generators render the same Buy Credits toggle and return notice; they are covered by component tests.)
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Messages } from '../../contract/errors';
import { WITHDRAWAL_CONSENT_TEXT } from '../../contract/payments';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi, storedIdToken } from './support/accounts';

/** The balance My Account shows (the nav shows it too; this is the one in the page). */
const balanceOnPage = (page: Page) => page.getByRole('main').getByTestId('credit-balance');

/** GET /api/me as the signed-in user: what the server holds, whatever the page shows. */
async function me(page: Page, request: APIRequestContext): Promise<{ sub: string; credits: number }> {
  const token = await storedIdToken(page);
  if (!token) throw new Error('No ID token in localStorage: is the user signed in?');
  const res = await request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return (await res.json()) as { sub: string; credits: number };
}

/** Signs a new user in and opens My Account > Buy Credits with the balance known. */
async function openBuyCredits(page: Page): Promise<void> {
  const user = await createVerifiedUser();
  await loginViaUi(page, user);
  await page.goto('/admin?tab=buy-credits');
  await expect(page.getByRole('tab', { name: 'Buy Credits' })).toHaveAttribute('aria-selected', 'true');
  await expect(balanceOnPage(page)).toHaveText('10');
}

/** Presses Buy on the 72 pack and waits for PayPal's approval page. */
async function buy72(page: Page): Promise<void> {
  // The packs' own box (My Account's plan panel has one of its own).
  const consent = page.getByRole('group', { name: 'Buy a credit pack' }).getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT });
  // The box is unticked at first; a Buy before it is ticked says so and goes nowhere.
  if (!(await consent.isChecked())) {
    await page.getByRole('button', { name: 'Buy 72 credits for $6.99' }).click();
    await expect(page.getByRole('group', { name: 'Buy a credit pack' }).getByRole('alert')).toHaveText(Messages.withdrawalConsentRequired);
    await consent.check();
  }
  await page.getByRole('button', { name: 'Buy 72 credits for $6.99' }).click();
  await expect(page).toHaveURL(/\/checkoutnow\?token=[A-Z0-9]+$/);
  await expect(page.getByRole('heading', { name: 'Pay Framewright' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '$6.99 USD' }).last()).toBeVisible();
}

const tableRows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr');

test('buy the 72 pack from My Account through PayPal: exactly 72 credits, the message, the order and the ledger row', async ({ page, request }) => {
  await openBuyCredits(page);
  const before = await me(page, request);
  expect(before.credits).toBe(10);

  await buy72(page);
  await page.getByRole('button', { name: 'Pay now' }).click();

  // Back on My Account, with the query string cleared once the message is shown.
  await expect(page.getByText('Payment successful! Added 72 credits.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(balanceOnPage(page)).toHaveText('82');
  expect((await me(page, request)).credits).toBe(82);

  // PayPal's webhooks for the same order arrive as well and change nothing; a reload shows no message again.
  await page.reload();
  await expect(balanceOnPage(page)).toHaveText('82');
  await expect(page.getByText('Payment successful! Added 72 credits.')).toHaveCount(0);
  expect((await me(page, request)).credits).toBe(82);

  await page.getByRole('tab', { name: 'My Payments' }).click();
  await expect(tableRows(page, 'Orders')).toHaveCount(1);
  await expect(tableRows(page, 'Orders').first().getByRole('cell')).toHaveText([/\d{4}/, '72 credits', '$6.99', /^Paid.*\d{4}/, /^Capture[A-Z0-9]{17}Paid/]);
  await expect(tableRows(page, 'Credit history')).toHaveCount(2);
  await expect(tableRows(page, 'Credit history').nth(0).getByRole('cell')).toHaveText([/\d{4}/, 'Purchase', '+72', '82']);
  await expect(tableRows(page, 'Credit history').nth(1).getByRole('cell')).toHaveText([/\d{4}/, 'Welcome bonus', '+10', '10']);
  await expect(page.getByText('Payment integration coming soon.')).toHaveCount(0);

  await expectNoA11yViolations(page, { include: 'main', tags: ['wcag2a', 'wcag2aa'] });
});

test('cancel on PayPal: back to My Account with "Payment canceled.", the balance unchanged, the order canceled', async ({ page, request }) => {
  await openBuyCredits(page);
  await buy72(page);
  await page.getByRole('button', { name: 'Cancel and return' }).click();

  await expect(page.getByText('Payment canceled.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(balanceOnPage(page)).toHaveText('10');
  expect((await me(page, request)).credits).toBe(10);

  await page.getByRole('tab', { name: 'My Payments' }).click();
  await expect(tableRows(page, 'Orders').first().getByRole('cell')).toHaveText([/\d{4}/, '72 credits', '$6.99', /^Canceled.*\d{4}/, '-']);
  await expect(tableRows(page, 'Credit history')).toHaveCount(1);
  await expect(tableRows(page, 'Credit history').first().getByRole('cell')).toHaveText([/\d{4}/, 'Welcome bonus', '+10', '10']);
});

test('a forged return URL shows no success message and adds nothing', async ({ page, request }) => {
  await openBuyCredits(page);
  const { sub } = await me(page, request);
  for (const url of [`/admin?payment=success&userId=${sub}&credits=999`, `/admin?payment=success&userId=${randomUUID()}&credits=999`, '/admin?payment=success&order=FORGEDORDER0000000']) {
    await page.goto(url);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(balanceOnPage(page)).toHaveText('10');
    await page.waitForLoadState('networkidle');
    await expect(page.getByText(/Payment successful/)).toHaveCount(0);
  }
  expect((await me(page, request)).credits).toBe(10);
});

test('the landing page names the buyer by masked email; a refund at PayPal takes the credits back and My Payments says so', async ({ page, request }) => {
  await openBuyCredits(page);
  const token = await storedIdToken(page);
  const started = await request.post('/api/create-paypal-payment', { headers: { authorization: `Bearer ${token}` }, data: { withdrawalConsent: true, amount: '6.99', credits: 72, returnPath: '/' } });
  expect(started.status()).toBe(200);
  const { paymentUrl } = (await started.json()) as { paymentUrl: string };
  await page.goto(paymentUrl);
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Payment successful!' })).toHaveText(/^Payment successful! 72 credits added to user \w\*\*\*@\w\*\*\*\.\w+\.$/);
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/admin?tab=my-payments');
  const receipt = tableRows(page, 'Orders').first().getByRole('cell').nth(4);
  const captureId = /Capture([A-Z0-9]{17})/.exec((await receipt.textContent()) ?? '')?.[1];
  expect(captureId).toBeTruthy();
  const refund = await request.post(`${new URL(paymentUrl).origin}/simulator/captures/${captureId}/refund`, { data: {} });
  expect(refund.status()).toBe(201);
  await expect(async () => {
    await page.reload();
    // A reload loads the app again (scripts, session, the orders): give each look a few seconds on a busy machine.
    await expect(tableRows(page, 'Orders').first().getByRole('cell').nth(3)).toHaveText(/^Refunded/, { timeout: 5000 });
  }).toPass({ timeout: 30_000 });
  await expect(tableRows(page, 'Credit history').first().getByRole('cell')).toHaveText([/\d{4}/, 'Refund', '\u221272', '10']);
  expect((await me(page, request)).credits).toBe(10);
});

test('Buy Credits and My Payments fit a 375 px phone', async ({ page }) => {
  await openBuyCredits(page);
  // Logged in at the default size (the phone layout folds Logout into the menu), then the phone.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  for (const name of ['Buy 72 credits for $6.99', 'Buy 150 credits for $13.99', 'Buy 300 credits for $25.99']) {
    await expect(page.getByRole('button', { name })).toBeVisible();
  }
  await page.getByRole('tab', { name: 'My Payments' }).click();
  await expect(page.getByText('No payments yet.')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
