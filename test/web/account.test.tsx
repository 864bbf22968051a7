import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cognitoError, fakeAmplifyAuth, resetFakeAmplifyAuth, renderAt, setUpAuthTest, TEST_USER } from './helpers/auth-env';

jest.mock('../../web/src/features/auth/amplify-auth', () => fakeAmplifyAuth());
const amplify = jest.requireMock('../../web/src/features/auth/amplify-auth') as ReturnType<typeof fakeAmplifyAuth>;

import { AccountPage } from '../../web/src/features/account/account-page';
import { ChangePasswordTab } from '../../web/src/features/account/tabs/change-password';
import { useSessionStore } from '../../web/src/features/auth/session-store';
import { setCredits } from '../../web/src/features/credits';
import { setUpGenerator, tearDownGenerator } from './helpers/generator-env';

beforeEach(() => {
  resetFakeAmplifyAuth(amplify);
  setUpAuthTest('signedIn');
});

describe('Change Password', () => {
  async function fill(current: string, next: string, confirm: string) {
    const user = userEvent.setup();
    if (current) await user.type(screen.getByLabelText(/^Current password/), current);
    if (next) await user.type(screen.getByLabelText(/^New password/), next);
    if (confirm) await user.type(screen.getByLabelText(/^Confirm new password/), confirm);
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    return user;
  }

  it("asks for the current password first: 'Please enter your current password to proceed.'", async () => {
    renderAt('/admin', <ChangePasswordTab />);
    await fill('', 'N3wPassword', 'Other1234');
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your current password to proceed.');
    expect(amplify.changePassword).not.toHaveBeenCalled();
  });

  it("needs a signed-in user: 'No user is signed in.'", async () => {
    useSessionStore.setState({ status: 'signedOut', user: undefined });
    renderAt('/admin', <ChangePasswordTab />);
    await fill('Sup3rSecret', 'N3wPassword', 'N3wPassword');
    expect(screen.getByRole('alert')).toHaveTextContent('No user is signed in.');
    expect(amplify.changePassword).not.toHaveBeenCalled();
  });

  it("'Passwords do not match.' when the confirmation differs", async () => {
    renderAt('/admin', <ChangePasswordTab />);
    await fill('Sup3rSecret', 'N3wPassword', 'N3wPassword!');
    expect(screen.getByRole('alert')).toHaveTextContent(/^Passwords do not match\.$/);
    expect(amplify.changePassword).not.toHaveBeenCalled();
  });

  it('a wrong current password fails with the reason, and the fields stay', async () => {
    amplify.changePassword.mockRejectedValueOnce(cognitoError('NotAuthorizedException', 'Incorrect username or password.'));
    renderAt('/admin', <ChangePasswordTab />);
    await fill('Wr0ngPassword', 'N3wPassword', 'N3wPassword');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update password: Your current password is incorrect.');
    expect(screen.getByLabelText(/^New password/)).toHaveValue('N3wPassword');
  });

  it('a new password that breaks the policy fails with the rule', async () => {
    amplify.changePassword.mockRejectedValueOnce(
      cognitoError('InvalidPasswordException', 'Password did not conform with policy: Password not long enough'),
    );
    renderAt('/admin', <ChangePasswordTab />);
    await fill('Sup3rSecret', 'short', 'short');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to update password: Password not long enough. At least 8 characters, with upper and lower case letters and a number.',
    );
  });

  it("succeeds with 'Password updated successfully!' and clears the fields", async () => {
    renderAt('/admin', <ChangePasswordTab />);
    await fill('Sup3rSecret', 'N3wPassword', 'N3wPassword');
    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(amplify.changePassword).toHaveBeenCalledWith('Sup3rSecret', 'N3wPassword');
    for (const label of [/^Current password/, /^New password/, /^Confirm new password/]) {
      expect(screen.getByLabelText(label)).toHaveValue('');
    }
  });
});

describe('My Account', () => {
  afterEach(() => tearDownGenerator());

  it("shows 'Logged in as' the email, the balance, and opens Previous Prompts by default", async () => {
    // The API answers with an empty gallery.
    setUpGenerator({ credits: 10 });
    setUpAuthTest('signedIn');
    setCredits(10);
    renderAt('/admin', <AccountPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'My Account' })).toBeInTheDocument();
    expect(screen.getByText(/Logged in as/)).toHaveTextContent(`Logged in as ${TEST_USER.email}`);
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('10');
    const tabs = within(screen.getByRole('tablist', { name: 'My Account' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Change Password', 'Previous Prompts', 'My Payments', 'Buy Credits', 'Contact', 'Delete Account']);
    expect(screen.getByRole('tab', { name: 'Previous Prompts' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No previous prompts to display.')).toBeInTheDocument();
  });

  it("shows 'Loading...' until the balance is known", () => {
    renderAt('/admin', <AccountPage />);
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('Loading...');
  });

  it('switches tabs by click and keyboard, keeping the tab in the address', async () => {
    const { router } = renderAt('/admin', <AccountPage />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'My Payments' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'My Payments' })).toBeInTheDocument();
    expect(screen.queryByText('Payment integration coming soon.')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=my-payments');

    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Buy Credits' })).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByRole('tab', { name: 'Buy Credits' })).toHaveFocus();
    const packs = within(await screen.findByRole('list', { name: 'Credit packs' })).getAllByRole('listitem');
    expect(packs.map((p) => p.textContent)).toEqual([
      expect.stringMatching(/^72 credits.*\$6\.99.*about 9 basic videos/i),
      expect.stringMatching(/^150 credits.*\$13\.99.*about 18 basic videos/i),
      expect.stringMatching(/^300 credits.*\$25\.99.*about 37 basic videos/i),
    ]);

    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Contact' })).toHaveAttribute('aria-selected', 'true'));
    expect(await screen.findByRole('link', { name: 'help@framewright.test' })).toHaveAttribute('href', 'mailto:help@framewright.test');
    expect(screen.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq');
    await user.keyboard('{End}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Delete Account' })).toHaveAttribute('aria-selected', 'true'));
    expect(await screen.findByRole('button', { name: 'Delete account' })).toBeInTheDocument();
    // The plan ends with the account (issue 36).
    expect(screen.getByText(/Your monthly plan, if you have one, ends with your account: it is cancelled at PayPal first/)).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    // Wraps around to the first tab.
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Change Password' })).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByRole('tab', { name: 'Change Password' })).toHaveFocus();
  });

  it('opens the tab named in the address', async () => {
    renderAt('/admin', <AccountPage />, '/admin?tab=change-password');
    expect(await screen.findByRole('form', { name: 'Change password' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'account-tab-change-password'));
  });
});
