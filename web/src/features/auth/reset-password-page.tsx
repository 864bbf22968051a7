/**
 * /reset-password?email=&code=: sets a new password with the code from the reset email (the email's link
 * fills both). 'Send a new code' mails another one. On success: /login with a confirmation line.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { confirmPasswordReset, requestPasswordReset } from './amplify-auth';
import { PASSWORD_RULES, authErrorReason } from './auth-errors';
import { AuthMessages } from './auth-messages';
import { AuthShell, textLinkClass } from './auth-shell';
import type { LoginPageState } from './login-page';

type Feedback = { variant: 'error' | 'success'; text: string } | undefined;

interface ResetForm {
  email: string;
  code: string;
  password: string;
  confirmPassword: string;
}

/** The first problem with the form, or undefined when it can be sent. */
export function resetValidationError(form: ResetForm): string | undefined {
  if (!form.email.trim()) return AuthMessages.enterEmailFirst;
  if (!form.code.trim()) return AuthMessages.enterCode;
  if (!form.password || !form.confirmPassword) return AuthMessages.fillAllFields;
  if (form.password !== form.confirmPassword) return AuthMessages.passwordsDoNotMatch;
  return undefined;
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form, setForm] = useState<ResetForm>({
    email: params.get('email') ?? '',
    code: (params.get('code') ?? '').trim(),
    password: '',
    confirmPassword: '',
  });
  const [busy, setBusy] = useState<'reset' | 'resend' | undefined>();
  const [feedback, setFeedback] = useState<Feedback>();

  const field = (key: keyof ResetForm) => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = resetValidationError(form);
    if (problem) return setFeedback({ variant: 'error', text: problem });
    const email = form.email.trim();
    setBusy('reset');
    setFeedback(undefined);
    try {
      await confirmPasswordReset(email, form.code.trim(), form.password);
      const state: LoginPageState = { message: AuthMessages.passwordReset, email };
      navigate('/login', { replace: true, state });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.resetFailed(authErrorReason(err, 'confirmResetPassword')) });
      setBusy(undefined);
    }
  }

  async function onResend() {
    const email = form.email.trim();
    if (!email) return setFeedback({ variant: 'error', text: AuthMessages.enterEmailFirst });
    setBusy('resend');
    setFeedback(undefined);
    try {
      await requestPasswordReset(email);
      setFeedback({ variant: 'success', text: AuthMessages.resetEmailSent });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.resetEmailFailed(authErrorReason(err, 'resetPassword')) });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <AuthShell
      title="Set a new password"
      subtitle="Enter the code from the password reset email and choose a new password."
      footer={
        <>
          Remembered it?{' '}
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
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Set a new password">
        <TextField label="Email" type="email" name="email" autoComplete="email" required {...field('email')} />
        <TextField
          label="Reset code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          maxLength={12}
          {...field('code')}
        />
        <TextField
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint={PASSWORD_RULES}
          {...field('password')}
        />
        <TextField
          label="Confirm new password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          {...field('confirmPassword')}
        />
        <Button type="submit" size="lg" fullWidth loading={busy === 'reset'} disabled={busy === 'resend'}>
          Reset Password
        </Button>
        <Button variant="ghost" onClick={() => void onResend()} loading={busy === 'resend'} disabled={busy === 'reset'}>
          Send a new code
        </Button>
      </form>
    </AuthShell>
  );
}

export default ResetPasswordPage;
