import { expect, test } from '@playwright/test';
import {
  codeFrom,
  createUnverifiedUser,
  createVerifiedUser,
  linkFrom,
  loginViaUi,
  mailFor,
  RESET_SUBJECT,
  VERIFY_SUBJECT,
  submitLogin,
  waitForMail,
} from './support/accounts';

test.describe('log in, forgot password, log out', () => {
  test('logging in before verifying says so, and a new code arrives that verifies', async ({ page }) => {
    const user = await createUnverifiedUser();
    const first = await waitForMail(user.email, VERIFY_SUBJECT);

    await page.goto('/login');
    await submitLogin(page, user);
    await expect(
      page.getByText('Please verify your email before logging in. Check your inbox for a verification link.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);

    const fresh = await waitForMail(user.email, VERIFY_SUBJECT, [first.id]);
    expect(codeFrom(fresh)).not.toBe(codeFrom(first));
    expect(await mailFor(user.email)).toHaveLength(2);

    await page.getByRole('link', { name: 'Enter your verification code' }).click();
    const verify = page.getByRole('form', { name: 'Verify email' });
    await expect(verify.getByLabel(/^Email/)).toHaveValue(user.email);
    await verify.getByLabel(/^Verification code/).fill(codeFrom(fresh));
    await verify.getByRole('button', { name: 'Verify Email' }).click();
    await expect(page.getByText('Email verified! You can now log in.')).toBeVisible();
    await loginViaUi(page, user, { goto: false });
  });

  test('a wrong password gives a login error', async ({ page }) => {
    const user = await createVerifiedUser();
    await page.goto('/login');
    await submitLogin(page, { email: user.email, password: 'Wr0ngPassword' });
    await expect(page.getByRole('alert')).toHaveText('Login error: Incorrect email or password.');
  });

  test('forgot password: email first, reset by the emailed link, then log in with the new password only', async ({ page }) => {
    const user = await createVerifiedUser();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter your email address first.');

    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel(/^Email/).fill(user.email);
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(page.getByText('Password reset email sent. Please check your inbox.')).toBeVisible();

    const mail = await waitForMail(user.email, RESET_SUBJECT);
    await page.goto(linkFrom(mail));
    const reset = page.getByRole('form', { name: 'Set a new password' });
    await expect(reset.getByLabel(/^Email/)).toHaveValue(user.email);
    await expect(reset.getByLabel(/^Reset code/)).toHaveValue(codeFrom(mail));
    await reset.getByLabel(/^New password/).fill('N3wPassword');
    await reset.getByLabel(/^Confirm new password/).fill('N3wPasswordX');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');

    await reset.getByLabel(/^Confirm new password/).fill('N3wPassword');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Your password has been reset. You can now log in with your new password.')).toBeVisible();

    const login = page.getByRole('form', { name: 'Log in' });
    await login.getByLabel(/^Password/).fill(user.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Login error: Incorrect email or password.');
    await loginViaUi(page, { email: user.email, password: 'N3wPassword' }, { goto: false });
  });

  test('a reset for an unknown address fails with a reason', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('form', { name: 'Log in' }).getByLabel(/^Email/).fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to send reset email: No account was found with this email address.',
    );
  });

  test('logout signs out and goes to /login; the nav shows Login and Sign Up again', async ({ page }) => {
    const user = await createVerifiedUser();
    await loginViaUi(page, user);
    const nav = page.getByRole('navigation', { name: 'App' });
    for (const name of ['Image Generator', 'Video Generator', 'My Account']) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    await nav.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Sign Up' })).toBeVisible();

    // Signed out for good: a reload does not bring the session back, and protected pages redirect.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Please log in to continue.')).toBeVisible();
  });
});
