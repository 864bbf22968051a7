/**
 * Plans from /pricing: a new visitor picks a plan, signs in, approves the subscription on PayPal's page (the
 * simulator's), is back on /pricing, which asks for the plan (the return itself says nothing) and says it is active, and My Account shows the plan active with its next billing date and the plan's
 * credits beside the pack credits.
 */
import { expect, test } from '@playwright/test';
import { formatUsd } from '../../contract/packs';
import { WITHDRAWAL_CONSENT_TEXT } from '../../contract/payments';
import { PLANS } from '../../contract/plans';
import { createVerifiedUser, submitLogin } from './support/accounts';

test('a new visitor subscribes from /pricing and sees the plan and its credits in My Account', async ({ page }) => {
  const plan = PLANS[0]!;
  const user = await createVerifiedUser();

  await page.goto('/pricing');
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: `Subscribe to ${plan.name} for ${formatUsd(plan.cents)} a month` }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
  await page.getByRole('link', { name: 'Log in' }).click();
  await submitLogin(page, user);

  // The withdrawal consent first, then PayPal's subscription approval page for that plan.
  await page.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }).check();
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();
  await expect(page).toHaveURL(/\/webapps\/billing\/subscriptions\?ba_token=BA-[A-Z0-9]+$/);
  await expect(page.getByText(plan.name)).toBeVisible();
  await page.getByRole('button', { name: 'Agree and subscribe' }).click();

  // Back where the plan was chosen, with a marker that says nothing; the page asks for the plan with the buyer's session.
  await expect(page).toHaveURL(/\/pricing\?subscription=returned$/);
  await expect(page.getByTestId('subscription-return')).toHaveText(`Your plan is active: ${plan.name}, ${plan.credits} credits a month.`);

  await page.goto('/admin');
  const panel = page.getByTestId('subscription-panel');
  await expect(panel.getByRole('heading', { name: `Your plan: ${plan.name}` })).toBeVisible();
  await expect(panel.getByTestId('plan-status')).toHaveText('Active');
  await expect(panel.getByTestId('plan-next-billing')).not.toBeEmpty();
  await expect(panel.getByTestId('plan-credits')).toHaveText(String(plan.credits));
  await expect(panel.getByTestId('pack-credits')).toHaveText('10');
});
