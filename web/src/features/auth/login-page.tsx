/**
 * /login: email and password, 'Forgot Password?', a link to sign up, the looping clip.
 * Returns to the page the guard sent the user from (`state.from`), else the image generator.
 * Shows why the user is here: a session that ended (expired, disabled), a protected page, a verified
 * email or a reset password (`state.message`).
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { PageLoader } from '../../components/spinner';
import { resendVerificationCode } from './amplify-auth';
import { authErrorReason } from './auth-errors';
import { EmailField, PasswordField } from './auth-fields';
import { AuthForm } from './auth-form';
import { AuthMessages } from './auth-messages';
import type { Feedback } from './form-feedback';
import { rememberPendingEmail } from './pending-email';
import { safeReturnPath } from './return-path';
import { SESSION_NOTICES, clearSessionNotice, logIn, useSession, useSessionNotice } from './session-store';
import { useSendCode } from './use-send-code';

export interface LoginPageState {
  from?: string;
  /** A success line to show, e.g. after verifying the email. */
  message?: string;
  email?: string;
}

export function LoginPage() {
  const { status } = useSession();
  const notice = useSessionNotice();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as LoginPageState;

  const [email, setEmail] = useState(state.email ?? params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(() =>
    state.message ? { variant: 'success', text: state.message } : undefined,
  );
  const reset = useSendCode({
    kind: 'passwordReset',
    setFeedback,
    next: (address) => ({ label: 'Set a new password', to: `/reset-password?email=${encodeURIComponent(address)}` }),
  });

  if (status === 'loading') return <PageLoader label="Loading..." />;
  if (status === 'signedIn') return <Navigate to={safeReturnPath(state.from)} replace />;

  const banner: Feedback =
    feedback ??
    (notice
      ? { variant: 'error', text: notice }
      : state.from
        ? { variant: 'info', text: SESSION_NOTICES.signInRequired }
        : undefined);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!address || !password) {
      setFeedback({ variant: 'error', text: AuthMessages.fillAllFields });
      return;
    }
    setBusy(true);
    setFeedback(undefined);
    try {
      const outcome = await logIn(address, password);
      if (outcome === 'signedIn') {
        clearSessionNotice();
        navigate(safeReturnPath(state.from), { replace: true });
        return;
      }
      // Not verified yet: send a fresh code, as the spec asks, and point to the verify page.
      rememberPendingEmail(address);
      const verify = { label: 'Enter your verification code', to: `/verify?email=${encodeURIComponent(address)}` };
      try {
        await resendVerificationCode(address);
        setFeedback({ variant: 'info', text: AuthMessages.verifyBeforeLogin, action: verify });
      } catch (err) {
        setFeedback({
          variant: 'error',
          text: `${AuthMessages.verifyBeforeLogin} ${AuthMessages.resendFailed(authErrorReason(err, 'resendCode'))}`,
          action: verify,
        });
      }
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.loginError(authErrorReason(err, 'signIn')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthForm
      title="Log in"
      subtitle="Welcome back. Pick up where you left off."
      withVideo
      footer={{ question: "Don't have an account?", to: '/signup', link: 'Sign up', state: state.from ? { from: state.from } : undefined }}
      label="Log in"
      onSubmit={onSubmit}
      feedback={banner}
    >
      <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
      <PasswordField value={password} onChange={(e) => setPassword(e.target.value)} />
      <div className="-mt-1 flex justify-end">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => void reset.sendCode(email)}
          loading={reset.sending}
          disabled={busy}
          className="-mr-3"
        >
          Forgot Password?
        </Button>
      </div>
      <Button type="submit" size="lg" fullWidth loading={busy} disabled={reset.sending}>
        Login
      </Button>
    </AuthForm>
  );
}

export default LoginPage;
