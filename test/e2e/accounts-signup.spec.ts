import { expect, test } from '@playwright/test';
import { SHOWCASE_RENDERS } from '../../web/src/features/marketing/showcase-renders';
import { codeFrom, createVerifiedUser, DEFAULT_PASSWORD, linkFrom, uniqueEmail, VERIFY_SUBJECT, waitForMail } from './support/accounts';

/** The loop beside the forms is a simulator placeholder until real renders are committed: then a designed panel shows. */
const AUTH_PLACEHOLDER = SHOWCASE_RENDERS['auth-loop']?.provider !== 'replicate';

test.describe('sign up and verify', () => {
  test('sign up, read the code from the mailbox, verify, log in and see the 10 welcome credits', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    if (AUTH_PLACEHOLDER) await expect(page.getByTestId('auth-panel')).toBeVisible();
    else {
      await expect(page.getByTestId('auth-video')).toHaveJSProperty('muted', true);
      await expect(page.getByTestId('auth-video')).toHaveJSProperty('loop', true);
    }

    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel(/^First name/).fill('Ada');
    await form.getByLabel(/^Last name/).fill('Lovelace');
    await form.getByLabel(/^Email/).fill(email);
    await expect(form.getByLabel(/^Email/)).toHaveAttribute('type', 'email');
    await form.getByLabel(/^Password/).fill(DEFAULT_PASSWORD);
    await form.getByLabel(/^Confirm password/).fill(DEFAULT_PASSWORD);
    await form.getByRole('button', { name: 'Agree & Sign Up' }).click();

    await expect(page).toHaveURL(/\/verify\?email=/);
    await expect(
      page.getByText('Verification email sent! Please check your inbox and verify your email before logging in.'),
    ).toBeVisible();

    const code = codeFrom(await waitForMail(email, VERIFY_SUBJECT));
    const verify = page.getByRole('form', { name: 'Verify email' });
    await expect(verify.getByLabel(/^Email/)).toHaveValue(email);
    await verify.getByLabel(/^Verification code/).fill(code);
    await verify.getByRole('button', { name: 'Verify Email' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Email verified! You can now log in.')).toBeVisible();
    const login = page.getByRole('form', { name: 'Log in' });
    await expect(login.getByLabel(/^Email/)).toHaveValue(email);
    await login.getByLabel(/^Password/).fill(DEFAULT_PASSWORD);
    await login.getByRole('button', { name: 'Login' }).click();

    const nav = page.getByRole('navigation', { name: 'App' });
    await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(nav.getByTestId('credit-balance')).toHaveText('10');
    await nav.getByRole('link', { name: 'My Account' }).click();
    await expect(page).toHaveURL(/\/admin/);
    await expect(page.getByText(`Logged in as ${email}`)).toBeVisible();
    await expect(page.getByRole('main').getByTestId('credit-balance')).toHaveText('10');
  });

  test('the link in the verification email verifies in one click', async ({ page }) => {
    const email = uniqueEmail('link');
    await page.goto('/signup');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel(/^First name/).fill('Alan');
    await form.getByLabel(/^Last name/).fill('Turing');
    await form.getByLabel(/^Email/).fill(email);
    await form.getByLabel(/^Password/).fill(DEFAULT_PASSWORD);
    await form.getByLabel(/^Confirm password/).fill(DEFAULT_PASSWORD);
    await form.getByRole('button', { name: 'Agree & Sign Up' }).click();
    await expect(page).toHaveURL(/\/verify/);

    await page.goto(linkFrom(await waitForMail(email, VERIFY_SUBJECT)));
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Email verified! You can now log in.')).toBeVisible();
  });

  test('signing up with an email already in use says so', async ({ page }) => {
    const existing = await createVerifiedUser();
    await page.goto('/signup');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel(/^First name/).fill('Ada');
    await form.getByLabel(/^Last name/).fill('Lovelace');
    await form.getByLabel(/^Email/).fill(existing.email);
    await form.getByLabel(/^Password/).fill(DEFAULT_PASSWORD);
    await form.getByLabel(/^Confirm password/).fill(DEFAULT_PASSWORD);
    await form.getByRole('button', { name: 'Agree & Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Signup error: An account with this email already exists. Log in or reset your password.',
    );
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('a password that breaks the policy gives a readable reason', async ({ page }) => {
    await page.goto('/signup');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel(/^First name/).fill('Ada');
    await form.getByLabel(/^Last name/).fill('Lovelace');
    await form.getByLabel(/^Email/).fill(uniqueEmail('weak'));
    await form.getByLabel(/^Password/).fill('alllowercase1');
    await form.getByLabel(/^Confirm password/).fill('alllowercase1');
    await form.getByRole('button', { name: 'Agree & Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Signup error: Password must have uppercase characters. At least 8 characters, with upper and lower case letters and a number.',
    );
  });

  test('the Terms and Conditions open in a modal from the signup form, and on /terms', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Terms and Conditions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Terms and Conditions' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Last updated: June 07, 2025');
    await expect(dialog).toContainText('18 years of age or older');
    await expect(dialog).toContainText('credits you paid for are missing from your balance');
    await expect(dialog).toContainText('credits were deducted for an image or video that was never delivered');
    await expect(dialog).toContainText('none of its credits were used and you ask for it within 24 hours');
    await expect(dialog).toContainText('We reply within 2 business days.');
    await expect(dialog).toContainText('laws of the State of Israel');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Terms and Conditions' })).toBeFocused();

    await page.goto('/terms');
    await expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
    await expect(page.getByTestId('terms-content')).toContainText('Last updated: June 07, 2025');
    // A public page under the marketing layout.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });
});
