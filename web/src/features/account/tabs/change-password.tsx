/**
 * My Account > Change Password: current, new and confirm. Checks, in the spec's order and words: the
 * current password is required, a user must be signed in, the new passwords must match; then Cognito's
 * ChangePassword re-checks the current password before it sets the new one.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { authErrorReason, AuthMessages, changePassword, FormFeedback, NewPasswordFields, useFormFields, useSession, type Feedback } from '../../auth';

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

export function ChangePasswordTab() {
  const { status, user } = useSession();
  const { form, setForm, field } = useFormFields<PasswordForm>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>();

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
      <FormFeedback feedback={feedback} className="mt-5" />
      {/* noValidate: the spec's own messages explain a missing field, not the browser's bubble. */}
      <form onSubmit={onSubmit} noValidate className="mt-5 flex flex-col gap-4" aria-label="Change password">
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <TextField label="Current password" type="password" name="currentPassword" autoComplete="current-password" required {...field('current')} />
        <NewPasswordFields password={field('next')} confirm={field('confirm')} names={{ password: 'newPassword', confirm: 'confirmNewPassword' }} />
        <Button type="submit" loading={busy} className="self-start">
          Update Password
        </Button>
      </form>
    </div>
  );
}

export default ChangePasswordTab;
