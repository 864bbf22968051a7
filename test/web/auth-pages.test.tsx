import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cognitoError, fakeAmplifyAuth, resetFakeAmplifyAuth, renderAt, setUpAuthTest } from './helpers/auth-env';

jest.mock('../../web/src/features/auth/amplify-auth', () => fakeAmplifyAuth());
const amplify = jest.requireMock('../../web/src/features/auth/amplify-auth') as ReturnType<typeof fakeAmplifyAuth>;

import { LoginPage } from '../../web/src/features/auth/login-page';
import { ResetPasswordPage } from '../../web/src/features/auth/reset-password-page';
import { SignupPage } from '../../web/src/features/auth/signup-page';
import { VerifyPage } from '../../web/src/features/auth/verify-page';
import { useSessionStore } from '../../web/src/features/auth/session-store';

beforeEach(() => {
  resetFakeAmplifyAuth(amplify);
  localStorage.clear();
  setUpAuthTest('signedOut');
});

const location = () => screen.getByTestId('location');

describe('/signup', () => {
  async function fillSignup(values: Partial<Record<'first' | 'last' | 'email' | 'password' | 'confirm', string>> = {}) {
    const user = userEvent.setup();
    const v = { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', password: 'Sup3rSecret', confirm: 'Sup3rSecret', ...values };
    if (v.first) await user.type(screen.getByLabelText(/^First name/), v.first);
    if (v.last) await user.type(screen.getByLabelText(/^Last name/), v.last);
    if (v.email) await user.type(screen.getByLabelText(/^Email/), v.email);
    if (v.password) await user.type(screen.getByLabelText(/^Password/), v.password);
    if (v.confirm) await user.type(screen.getByLabelText(/^Confirm password/), v.confirm);
    return user;
  }

  it('has the five required fields, an email-type email and the Agree & Sign Up button', () => {
    renderAt('/signup', <SignupPage />);
    for (const label of [/^First name/, /^Last name/, /^Email/, /^Password/, /^Confirm password/]) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByRole('button', { name: 'Agree & Sign Up' })).toHaveAttribute('type', 'submit');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it("says 'Passwords do not match' and does not sign up", async () => {
    renderAt('/signup', <SignupPage />);
    const user = await fillSignup({ confirm: 'Sup3rSecreT' });
    await user.click(screen.getByRole('button', { name: 'Agree & Sign Up' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/^Passwords do not match$/);
    expect(amplify.registerUser).not.toHaveBeenCalled();
  });

  it('refuses names that are only spaces (the browser accepts them as filled)', async () => {
    renderAt('/signup', <SignupPage />);
    const user = await fillSignup({ first: '   ' });
    await user.click(screen.getByRole('button', { name: 'Agree & Sign Up' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields.');
    expect(amplify.registerUser).not.toHaveBeenCalled();
  });

  it('signs up with trimmed names and goes to /verify with the verification line', async () => {
    renderAt('/signup', <SignupPage />);
    const user = await fillSignup({ first: ' Ada ' });
    await user.click(screen.getByRole('button', { name: 'Agree & Sign Up' }));
    await waitFor(() => expect(location()).toHaveTextContent('/verify?email=ada%40example.com'));
    expect(amplify.registerUser).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'Sup3rSecret', firstName: 'Ada', lastName: 'Lovelace' });
    expect(JSON.parse(location().dataset.state!)).toEqual({
      message: 'Verification email sent! Please check your inbox and verify your email before logging in.',
    });
  });

  it.each([
    ['UsernameExistsException', 'User already exists', 'Signup error: An account with this email already exists. Log in or reset your password.'],
    ['TooManyRequestsException', 'Rate exceeded', 'Signup error: Too many attempts. Please wait a few minutes and try again.'],
    ['NetworkError', 'A network error has occurred.', 'Signup error: Network error. Check your connection and try again.'],
  ])('shows Signup error with a readable reason for %s', async (name, message, expected) => {
    amplify.registerUser.mockRejectedValueOnce(cognitoError(name, message));
    renderAt('/signup', <SignupPage />);
    const user = await fillSignup();
    await user.click(screen.getByRole('button', { name: 'Agree & Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
  });

  it('opens the Terms and Conditions in a modal', async () => {
    renderAt('/signup', <SignupPage />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Terms and Conditions' }));
    const dialog = screen.getByRole('dialog', { name: 'Terms and Conditions' });
    expect(dialog).toHaveTextContent('Last updated: June 07, 2025');
    expect(dialog).toHaveTextContent('help@framewright.test');
  });
});

describe('/login', () => {
  async function fillLogin(email = 'ada@example.com', password = 'Sup3rSecret') {
    const user = userEvent.setup();
    if (email) await user.type(screen.getByLabelText(/^Email/), email);
    if (password) await user.type(screen.getByLabelText(/^Password/), password);
    return user;
  }

  it("'Forgot Password?' without an email asks for it first", async () => {
    renderAt('/login', <LoginPage />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Forgot Password?' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your email address first.');
    expect(amplify.requestPasswordReset).not.toHaveBeenCalled();
  });

  it("'Forgot Password?' sends the reset email, or says why not", async () => {
    renderAt('/login', <LoginPage />);
    const user = await fillLogin('ada@example.com', '');
    await user.click(screen.getByRole('button', { name: 'Forgot Password?' }));
    expect(await screen.findByText('Password reset email sent. Please check your inbox.')).toBeInTheDocument();
    expect(amplify.requestPasswordReset).toHaveBeenCalledWith('ada@example.com');
    expect(screen.getByRole('link', { name: 'Set a new password' })).toHaveAttribute('href', '/reset-password?email=ada%40example.com');

    amplify.requestPasswordReset.mockRejectedValueOnce(cognitoError('LimitExceededException', 'Attempt limit exceeded'));
    await user.click(screen.getByRole('button', { name: 'Forgot Password?' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send reset email: Too many attempts. Please wait a few minutes and try again.',
    );
  });

  it('an unverified account gets the spec message and a new code', async () => {
    amplify.signInWithPassword.mockResolvedValueOnce('unconfirmed');
    renderAt('/login', <LoginPage />);
    const user = await fillLogin();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await screen.findByText('Please verify your email before logging in. Check your inbox for a verification link.'),
    ).toBeInTheDocument();
    expect(amplify.resendVerificationCode).toHaveBeenCalledWith('ada@example.com');
    expect(screen.getByRole('link', { name: 'Enter your verification code' })).toHaveAttribute('href', '/verify?email=ada%40example.com');
  });

  it.each([
    ['NotAuthorizedException', 'Incorrect username or password.', 'Login error: Incorrect email or password.'],
    ['NotAuthorizedException', 'User is disabled.', 'Login error: This account has been disabled. Please contact support.'],
    ['UserNotFoundException', 'User does not exist.', 'Login error: Incorrect email or password.'],
    ['TooManyRequestsException', 'Rate exceeded', 'Login error: Too many attempts. Please wait a few minutes and try again.'],
    ['NetworkError', 'A network error has occurred.', 'Login error: Network error. Check your connection and try again.'],
  ])('shows Login error with a readable reason for %s (%s)', async (name, message, expected) => {
    amplify.signInWithPassword.mockRejectedValueOnce(cognitoError(name, message));
    renderAt('/login', <LoginPage />);
    const user = await fillLogin();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
  });

  it('goes back to the page the guard sent the user from', async () => {
    amplify.currentUser.mockResolvedValue({ sub: 's', email: 'ada@example.com', givenName: 'Ada', familyName: 'L' } as never);
    renderAt('/login', <LoginPage />, { pathname: '/login', state: { from: '/admin?tab=contact' } });
    expect(screen.getByText('Please log in to continue.')).toBeInTheDocument();
    const user = await fillLogin();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(location()).toHaveTextContent('/admin?tab=contact'));
    expect(useSessionStore.getState().status).toBe('signedIn');
  });

  it('shows why a session ended', () => {
    useSessionStore.setState({ notice: 'Your session has expired. Please log in again.' });
    renderAt('/login', <LoginPage />);
    expect(screen.getByRole('alert')).toHaveTextContent('Your session has expired. Please log in again.');
  });
});

describe('/verify', () => {
  it('asks for the email, then the code, before calling Cognito', async () => {
    renderAt('/verify', <VerifyPage />);
    const form = screen.getByRole('form', { name: 'Verify email' });
    fireEvent.submit(form);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your email address first.');
    await userEvent.setup().type(screen.getByLabelText(/^Email/), 'ada@example.com');
    fireEvent.submit(form);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the code from the email.');
    expect(amplify.confirmEmail).not.toHaveBeenCalled();
  });

  it('verifies in one click from the emailed link and goes to /login', async () => {
    renderAt('/verify', <VerifyPage />, '/verify?email=ada%40example.com&code=123456');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(amplify.confirmEmail).toHaveBeenCalledTimes(1);
    expect(amplify.confirmEmail).toHaveBeenCalledWith('ada@example.com', '123456');
    expect(JSON.parse(location().dataset.state!)).toEqual({ message: 'Email verified! You can now log in.', email: 'ada@example.com' });
  });

  it('fills the email from the sign-up in this browser when the link carries only the code (the cloud email)', async () => {
    localStorage.setItem('framewright:pending-email', 'grace@example.com');
    renderAt('/verify', <VerifyPage />, '/verify?code=654321');
    await waitFor(() => expect(amplify.confirmEmail).toHaveBeenCalledWith('grace@example.com', '654321'));
  });

  it('shows a wrong code as a verification error', async () => {
    amplify.confirmEmail.mockRejectedValueOnce(cognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.'));
    renderAt('/verify', <VerifyPage />, '/verify?email=ada%40example.com&code=000000');
    expect(await screen.findByRole('alert')).toHaveTextContent('Verification error: The code is incorrect. Check the latest email we sent you.');
  });
});

describe('/reset-password', () => {
  it('checks email, code and matching passwords before calling Cognito', async () => {
    renderAt('/reset-password', <ResetPasswordPage />);
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Set a new password' });
    fireEvent.submit(form);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your email address first.');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    fireEvent.submit(form);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the code from the email.');
    await user.type(screen.getByLabelText(/^Reset code/), '123456');
    await user.type(screen.getByLabelText(/^New password/), 'N3wPassword');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'N3wPassword!');
    fireEvent.submit(form);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Passwords do not match$/);
    expect(amplify.confirmPasswordReset).not.toHaveBeenCalled();
  });

  it('resets with the code from the link and goes to /login', async () => {
    renderAt('/reset-password', <ResetPasswordPage />, '/reset-password?email=ada%40example.com&code=123456');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^New password/), 'N3wPassword');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'N3wPassword');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(amplify.confirmPasswordReset).toHaveBeenCalledWith('ada@example.com', '123456', 'N3wPassword');
  });

  it('shows an expired code as a reset failure', async () => {
    amplify.confirmPasswordReset.mockRejectedValueOnce(cognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.'));
    renderAt('/reset-password', <ResetPasswordPage />, '/reset-password?email=ada%40example.com&code=123456');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^New password/), 'N3wPassword');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'N3wPassword');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to reset password: The code has expired. Request a new one.');
  });
});
