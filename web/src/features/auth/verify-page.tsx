/**
 * /verify?email=&code=: confirms the email with the code Cognito mailed. The link in the email carries
 * the code (and locally the email too), so opening it verifies in one click; otherwise the user types
 * the code. The email comes from the link, else from the sign-up in this browser (pending-email.ts).
 * On success: /login with 'Email verified! You can now log in.'
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { confirmEmail } from './amplify-auth';
import { authErrorReason } from './auth-errors';
import { CodeField, EmailField } from './auth-fields';
import { AuthForm } from './auth-form';
import { AuthMessages } from './auth-messages';
import type { Feedback } from './form-feedback';
import type { LoginPageState } from './login-page';
import { forgetPendingEmail, pendingEmail } from './pending-email';
import { useSendCode } from './use-send-code';

export interface VerifyPageState {
  /** A line to show on arrival, e.g. 'Verification email sent! ...' after sign-up. */
  message?: string;
  /** The page a new visitor asked for before signing up, where signing in returns. */
  from?: string;
}

export function VerifyPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const arrival = (location.state ?? {}) as VerifyPageState;

  const linkEmail = params.get('email') ?? '';
  const linkCode = (params.get('code') ?? '').trim();
  const [email, setEmail] = useState(linkEmail || pendingEmail());
  const [code, setCode] = useState(linkCode);
  const [verifying, setVerifying] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(() =>
    arrival.message ? { variant: 'success', text: arrival.message } : undefined,
  );
  const resend = useSendCode({ kind: 'verification', setFeedback });

  async function verify(address: string, value: string) {
    setVerifying(true);
    setFeedback({ variant: 'info', text: AuthMessages.verifying });
    try {
      await confirmEmail(address, value);
      forgetPendingEmail();
      const state: LoginPageState = { message: AuthMessages.verified, email: address, ...(arrival.from ? { from: arrival.from } : {}) };
      navigate('/login', { replace: true, state });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.verifyError(authErrorReason(err, 'confirmSignUp')) });
      setVerifying(false);
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

  return (
    <AuthForm
      title="Verify your email"
      subtitle="Enter the 6-digit code from the email we sent you, or open the link in that email."
      footer={{ question: 'Already verified?', to: '/login', link: 'Log in' }}
      label="Verify email"
      onSubmit={onSubmit}
      feedback={feedback}
    >
      <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
      <CodeField label="Verification code" value={code} onChange={(e) => setCode(e.target.value)} />
      <Button type="submit" size="lg" fullWidth loading={verifying} disabled={resend.sending}>
        Verify Email
      </Button>
      <Button variant="ghost" onClick={() => void resend.sendCode(email)} loading={resend.sending} disabled={verifying}>
        Send a new code
      </Button>
    </AuthForm>
  );
}

export default VerifyPage;
