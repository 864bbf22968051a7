/**
 * My Account > Change Password: current, new and confirm. Checks, in the spec's order and words: the
 * current password is required, a user must be signed in, the new passwords must match; then Cognito's
 * ChangePassword re-checks the current password before it sets the new one.
 */
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { changePassword } from '../../auth/amplify-auth';
import { PASSWORD_RULES, authErrorReason } from '../../auth/auth-errors';
import { AuthMessages } from '../../auth/auth-messages';
import { useSession } from '../../auth/session-store';

interface PasswordForm {
  current: string;
  next: string;
  confirm: string;
}

const EMPTY: PasswordForm = { current: '', next: '', confirm: '' };

/** The first problem before asking Cognito, in the spec's order, or undefined. */
export function changePasswordValidationError(form: PasswordForm, signedIn: boolean): string | undefined {
  if (!form.current) return AuthMessages.currentPasswordRequired;
  if (!signedIn) return AuthMessages.noUser;
  if (form.next !== form.confirm) return AuthMessages.newPasswordsDoNotMatch;
  if (!form.next) return AuthMessages.fillAllFields;
  return undefined;
}

type Feedback = { variant: 'error' | 'success'; text: string } | undefined;

export function ChangePasswordTab() {
  const { status, user } = useSession();
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>();

  const field = (key: keyof PasswordForm) => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = changePasswordValidationError(form, status === 'signedIn' && !!user);
    if (problem) return setFeedback({ variant: 'error', text: problem });
    setBusy(true);
    setFeedback(undefined);
    try {
      await changePassword(form.current, form.next);
      setForm(EMPTY);
      setFeedback({ variant: 'success', text: AuthMessages.passwordUpdated });
    } catch (err) {
      setFeedback({ variant: 'error', text: AuthMessages.updatePasswordFailed(authErrorReason(err, 'changePassword')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="max-w-md">
      <h2 className="text-lg font-semibold text-ink">Change Password</h2>
      <p className="mt-1 text-sm text-ink-muted">Enter your current password, then choose a new one.</p>
      {feedback && (
        <Alert variant={feedback.variant} className="mt-5">
          {feedback.text}
        </Alert>
      )}
      {/* noValidate: the spec's own messages explain a missing field, not the browser's bubble. */}
      <form onSubmit={onSubmit} noValidate className="mt-5 flex flex-col gap-4" aria-label="Change password">
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <TextField label="Current password" type="password" name="currentPassword" autoComplete="current-password" required {...field('current')} />
        <TextField
          label="New password"
          type="password"
          name="newPassword"
          autoComplete="new-password"
          required
          hint={PASSWORD_RULES}
          {...field('next')}
        />
        <TextField label="Confirm new password" type="password" name="confirmNewPassword" autoComplete="new-password" required {...field('confirm')} />
        <Button type="submit" loading={busy} className="self-start">
          Update Password
        </Button>
      </form>
    </div>
  );
}

export default ChangePasswordTab;
