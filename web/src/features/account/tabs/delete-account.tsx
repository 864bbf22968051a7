/**
 * My Account > Delete Account: what goes and what stays, and a dialog that asks for the password. The password is
 * confirmed by signing in again (fresh tokens: the server deletes only after a sign-in of the last few minutes), then
 * DELETE /api/me removes the account, its data and files, and the session ends on /account-deleted, which says so.
 */
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/modal';
import { api } from '../../../lib/api-client';
import { authErrorReason, confirmPassword, PasswordField, signOut, useSession } from '../../auth';
import { reasonOf } from '../../generation';

export const DeleteAccountText = {
  passwordRequired: 'Enter your password to confirm.',
  wrongPassword: (reason: string) => `Your password could not be confirmed: ${reason}`,
  failed: (reason: string) => `Your account could not be deleted: ${reason}`,
} as const;

function DeleteAccountTab() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return setError(DeleteAccountText.passwordRequired);
    setBusy(true);
    setError(undefined);
    try {
      try {
        await confirmPassword(password);
      } catch (err) {
        setError(DeleteAccountText.wrongPassword(authErrorReason(err, 'signIn')));
        return;
      }
      await api.deleteAccount();
      await signOut().catch(() => undefined);
      // A full load of the page: nothing of the signed-in app stays in memory.
      window.location.assign('/account-deleted');
    } catch (err) {
      setError(DeleteAccountText.failed(reasonOf(err)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="max-w-xl">
      <h2 className="text-lg font-semibold text-ink">Delete Account</h2>
      <div className="mt-2 space-y-2 text-sm text-ink-muted">
        <p>Deleting your account removes, for good: your sign-in, your images and videos with their files, your prompts, your credit balance and history, and your share links.</p>
        <p>Records of your purchases are kept for accounting, without your name, email or account: the order number, pack, amount, credits and dates.</p>
        <p>Your monthly plan, if you have one, ends with your account: it is cancelled at PayPal first, so nothing more is billed. If PayPal cannot be reached, your account is not deleted and you can try again in a few minutes.</p>
        <p>Unused credits are not refunded. Signing up again with the same email starts a new account without welcome credits.</p>
      </div>
      <Button variant="danger" className="mt-5" onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <Modal
        open={open}
        onClose={() => !busy && setOpen(false)}
        size="sm"
        title="Delete your account?"
        description="This cannot be undone. Enter your password to confirm."
      >
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Delete account">
          <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
          <PasswordField value={password} onChange={(e) => setPassword(e.target.value)} />
          {error && <Alert variant="error">{error}</Alert>}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={busy}>
              Delete my account
            </Button>
          </div>
        </form>
      </Modal>
    </div>
  );
}

export default DeleteAccountTab;
