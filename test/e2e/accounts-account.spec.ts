import { expect, test } from '@playwright/test';
import { createVerifiedUser, loginViaUi, submitLogin } from './support/accounts';

test.describe('My Account', () => {
  test('shows who is logged in, the tabs with Previous Prompts first, and each tab content', async ({ page }) => {
    const user = await createVerifiedUser();
    await loginViaUi(page, user);
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'My Account' }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
    await expect(page.getByText(`Logged in as ${user.email}`)).toBeVisible();
    const tabs = page.getByRole('tablist', { name: 'My Account' }).getByRole('tab');
    await expect(tabs).toHaveText(['Change Password', 'Previous Prompts', 'My Payments', 'Buy Credits', 'Contact', 'Delete Account']);
    await expect(page.getByRole('tab', { name: 'Previous Prompts' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toContainText('No previous prompts to display.');

    await page.getByRole('tab', { name: 'My Payments' }).click();
    await expect(page.getByRole('tabpanel').getByRole('heading', { name: 'My Payments' })).toBeVisible();
    await expect(page.getByRole('tabpanel')).toContainText('No payments yet.');

    // Keyboard: arrows move between tabs.
    await page.getByRole('tab', { name: 'My Payments' }).press('ArrowDown');
    await expect(page.getByRole('tab', { name: 'Buy Credits' })).toBeFocused();
    const packs = page.getByRole('list', { name: 'Credit packs' }).getByRole('listitem');
    await expect(packs).toHaveCount(3);
    await expect(packs.nth(0)).toContainText('72 credits');
    await expect(packs.nth(0)).toContainText('$6.99');
    await expect(packs.nth(0)).toContainText(/about 9 basic videos/i);
    await expect(packs.nth(2)).toContainText('300 credits');
    await expect(packs.nth(2)).toContainText(/about 37 basic videos/i);

    await page.getByRole('tab', { name: 'Contact' }).click();
    await expect(page.getByRole('tabpanel').getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq');
    await expect(page.getByRole('tabpanel').getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:.+@/);
    // The open tab is in the address, so a reload keeps it.
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Contact' })).toHaveAttribute('aria-selected', 'true');
  });

  test('change password: a wrong current password fails, the right one succeeds, and the new one logs in', async ({ page }) => {
    const user = await createVerifiedUser();
    await loginViaUi(page, user);
    await page.goto('/admin?tab=change-password');
    const form = page.getByRole('form', { name: 'Change password' });
    const current = form.getByLabel(/^Current password/);
    const next = form.getByLabel(/^New password/);
    const confirm = form.getByLabel(/^Confirm new password/);
    const submit = form.getByRole('button', { name: 'Update Password' });

    await next.fill('N3wPassword');
    await confirm.fill('N3wPassword');
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Please enter your current password to proceed.');

    await current.fill(user.password);
    await confirm.fill('Different1');
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');

    await current.fill('Wr0ngPassword');
    await confirm.fill('N3wPassword');
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Failed to update password: Your current password is incorrect.');

    await current.fill(user.password);
    await submit.click();
    await expect(page.getByText('Password updated successfully!')).toBeVisible();
    await expect(current).toHaveValue('');
    await expect(next).toHaveValue('');
    await expect(confirm).toHaveValue('');

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, user);
    await expect(page.getByRole('alert')).toHaveText('Login error: Incorrect email or password.');
    await loginViaUi(page, { email: user.email, password: 'N3wPassword' }, { goto: false });
  });
});
