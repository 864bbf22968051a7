/**
 * /verify?email=&code=: confirms the email with the code Cognito mailed. The link in the email carries
 * the code (and locally the email too), so opening it verifies in one click; otherwise the user types
 * the code. The email comes from the link, else from the sign-up in this browser (pending-email.ts).
 * On success: /login with 'Email verified! You can now log in.'
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { confirmEmail, resendVerificationCode } from './amplify-auth';
import { authErrorReason } from './auth-errors';
import { AuthMessages } from './auth-messages';
import { AuthShell, textLinkClass } from './auth-shell';
import type { LoginPageState } from './login-page';
import { forgetPendingEmail, pendingEmail } from './pending-email';

export interface VerifyPageState {
  /** A line to show on arrival, e.g. 'Verification email sent! ...' after sign-up. */
  message?: string;
}

type Feedback = { variant: 'error' | 'success' | 'info'; text: string } | undefined;

export function VerifyPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const arrival = (location.state ?? {}) as VerifyPageState;

  const linkEmail = params.get('email') ?? '';
  const linkCode = (params.get('code') ?? '').trim();
  const [email, setEmail] = useState(linkEmail || pendingEmail());
  const [code, setCode] = useState(linkCode);
  const [busy, setBusy] = useState<'verify' | 'resend' | undefined>();
  const [feedback, setFeedback] = useState<Feedback>(() =>
    arrival.message ? { variant: 'success', text: arrival.message } : undefined,
  );

  async function verify(address: string, value: string) {
    setBusy('verify');
    setFeedback({ variant: 'info', text: AuthMessages.verifying });
    try {
      await confirmEmail(address, value);
      forgetPendingEmail();
      const state: LoginPageState = { message: AuthMessages.verified, email: address };
      navigate('/login', { replace: true, state });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.verifyError(authErrorReason(err, 'confirmSignUp')) });
      setBusy(undefined);
    }
  }

  // One click from the email: verify as soon as the page opens with both parts (once, even in StrictMode).
  const autoStarted = useRef(false);
  useEffect(() => {
    if (autoStarted.current || !linkCode || !(linkEmail || pendingEmail())) return;
    autoStarted.current = true;
    void verify((linkEmail || pendingEmail()).trim(), linkCode);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    const value = code.trim();
    if (!address) return setFeedback({ variant: 'error', text: AuthMessages.enterEmailFirst });
    if (!value) return setFeedback({ variant: 'error', text: AuthMessages.enterCode });
    void verify(address, value);
  }

  async function onResend() {
    const address = email.trim();
    if (!address) return setFeedback({ variant: 'error', text: AuthMessages.enterEmailFirst });
    setBusy('resend');
    setFeedback(undefined);
    try {
      await resendVerificationCode(address);
      setFeedback({ variant: 'success', text: AuthMessages.codeResent(address) });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.resendFailed(authErrorReason(err, 'resendCode')) });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <AuthShell
      title="Verify your email"
      subtitle="Enter the 6-digit code from the email we sent you, or open the link in that email."
      footer={
        <>
          Already verified?{' '}
          <Link to="/login" className={textLinkClass}>
            Log in
          </Link>
        </>
      }
    >
      {feedback && (
        <Alert variant={feedback.variant} className="mb-5">
          {feedback.text}
        </Alert>
      )}
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Verify email">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Verification code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          maxLength={12}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Button type="submit" size="lg" fullWidth loading={busy === 'verify'} disabled={busy === 'resend'}>
          Verify Email
        </Button>
        <Button variant="ghost" onClick={() => void onResend()} loading={busy === 'resend'} disabled={busy === 'verify'}>
          Send a new code
        </Button>
      </form>
    </AuthShell>
  );
}

export default VerifyPage;
