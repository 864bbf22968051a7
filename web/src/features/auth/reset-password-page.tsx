/**
 * /reset-password?email=&code=: sets a new password with the code from the reset email (the email's link
 * fills both). 'Send a new code' mails another one. On success: /login with a confirmation line.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { confirmPasswordReset } from './amplify-auth';
import { authErrorReason } from './auth-errors';
import { CodeField, EmailField, NewPasswordFields } from './auth-fields';
import { AuthForm } from './auth-form';
import { AuthMessages } from './auth-messages';
import type { Feedback } from './form-feedback';
import type { LoginPageState } from './login-page';
import { useFormFields } from './use-form-fields';
import { useSendCode } from './use-send-code';

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
  const { form, field } = useFormFields<ResetForm>(() => ({
    email: params.get('email') ?? '',
    code: (params.get('code') ?? '').trim(),
    password: '',
    confirmPassword: '',
  }));
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>();
  const resend = useSendCode({ kind: 'passwordReset', setFeedback });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = resetValidationError(form);
    if (problem) return setFeedback({ variant: 'error', text: problem });
    const email = form.email.trim();
    setBusy(true);
    setFeedback(undefined);
    try {
      await confirmPasswordReset(email, form.code.trim(), form.password);
      const state: LoginPageState = { message: AuthMessages.passwordReset, email };
      navigate('/login', { replace: true, state });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.resetFailed(authErrorReason(err, 'confirmResetPassword')) });
      setBusy(false);
    }
  }

  return (
    <AuthForm
      title="Set a new password"
      subtitle="Enter the code from the password reset email and choose a new password."
      footer={{ question: 'Remembered it?', to: '/login', link: 'Log in' }}
      label="Set a new password"
      onSubmit={onSubmit}
      feedback={feedback}
    >
      <EmailField {...field('email')} />
      <CodeField label="Reset code" {...field('code')} />
      <NewPasswordFields password={field('password')} confirm={field('confirmPassword')} />
      <Button type="submit" size="lg" fullWidth loading={busy} disabled={resend.sending}>
        Reset Password
      </Button>
      <Button variant="ghost" onClick={() => void resend.sendCode(form.email)} loading={resend.sending} disabled={busy}>
        Send a new code
      </Button>
    </AuthForm>
  );
}

export default ResetPasswordPage;
