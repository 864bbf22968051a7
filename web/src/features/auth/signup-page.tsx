/**
 * /signup: first name, last name, email, password, confirm password (all required), 'Agree & Sign Up',
 * the Terms and Conditions in a modal, a link to log in, the looping clip. On success Cognito emails a
 * code and the user goes on to /verify with the spec's 'Verification email sent!...' line.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { NAME_RULE, isAcceptableName } from '../../../../contract/auth';
import { Button } from '../../components/button';
import { textLinkClass } from '../../components/link-styles';
import { Modal } from '../../components/modal';
import { PageLoader } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { TermsContent } from '../legal';
import { registerUser } from './amplify-auth';
import { authErrorReason } from './auth-errors';
import { EmailField, NewPasswordFields } from './auth-fields';
import { AuthForm } from './auth-form';
import { AuthMessages } from './auth-messages';
import { DEFAULT_AFTER_LOGIN } from './return-path';
import { rememberPendingEmail } from './pending-email';
import { useSession } from './session-store';
import { useFormFields } from './use-form-fields';
import type { VerifyPageState } from './verify-page';

interface SignupForm {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const EMPTY: SignupForm = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

/** The first problem with the form, in the spec's words, or undefined when it can be sent. */
export function signupValidationError(form: SignupForm): string | undefined {
  if (!form.firstName.trim() || !form.lastName.trim() || !form.email.trim() || !form.password || !form.confirmPassword) {
    return AuthMessages.fillAllFields;
  }
  if (!isAcceptableName(form.firstName) || !isAcceptableName(form.lastName)) return NAME_RULE;
  if (form.password !== form.confirmPassword) return AuthMessages.passwordsDoNotMatch;
  return undefined;
}

export function SignupPage() {
  const { status } = useSession();
  const navigate = useNavigate();
  /** The page that sent a new visitor here (RequireAuth), carried through /verify to /login. */
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const { form, field } = useFormFields<SignupForm>(EMPTY);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [termsOpen, setTermsOpen] = useState(false);

  if (status === 'loading') return <PageLoader label="Loading..." />;
  if (status === 'signedIn') return <Navigate to={DEFAULT_AFTER_LOGIN} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = signupValidationError(form);
    if (problem) {
      setError(problem);
      return;
    }
    const email = form.email.trim();
    setBusy(true);
    setError(undefined);
    try {
      await registerUser({ email, password: form.password, firstName: form.firstName.trim(), lastName: form.lastName.trim() });
      rememberPendingEmail(email);
      const state: VerifyPageState = { message: AuthMessages.verificationSent, ...(typeof from === 'string' ? { from } : {}) };
      navigate(`/verify?email=${encodeURIComponent(email)}`, { state });
    } catch (err) {
      setError(AuthMessages.signupError(authErrorReason(err, 'signUp')));
      setBusy(false);
    }
  }

  return (
    <AuthForm
      title="Create your account"
      subtitle="Sign up and get 10 free credits to start creating."
      withVideo
      footer={{ question: 'Already have an account?', to: '/login', link: 'Log in', state: typeof from === 'string' ? { from } : undefined }}
      label="Sign up"
      onSubmit={onSubmit}
      feedback={error ? { variant: 'error', text: error } : undefined}
      after={
        <Modal
          open={termsOpen}
          onClose={() => setTermsOpen(false)}
          title="Terms and Conditions"
          size="lg"
          footer={<Button onClick={() => setTermsOpen(false)}>Close</Button>}
        >
          <TermsContent headingLevel={3} />
        </Modal>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" name="firstName" autoComplete="given-name" required {...field('firstName')} />
        <TextField label="Last name" name="lastName" autoComplete="family-name" required {...field('lastName')} />
      </div>
      <EmailField {...field('email')} />
      <NewPasswordFields
        password={field('password')}
        confirm={field('confirmPassword')}
        labels={{ password: 'Password', confirm: 'Confirm password' }}
      />
      <p className="text-xs text-ink-muted">
        By selecting Agree &amp; Sign Up you confirm that you are 18 or older and agree to the{' '}
        <button type="button" onClick={() => setTermsOpen(true)} className={textLinkClass}>
          Terms and Conditions
        </button>
        .
      </p>
      <Button type="submit" size="lg" fullWidth loading={busy}>
        Agree &amp; Sign Up
      </Button>
    </AuthForm>
  );
}

export default SignupPage;
