/** The fields the account forms share, so each is named, labelled and autofilled the same everywhere. */
import { TextField } from '../../components/text-field';
import { PASSWORD_RULES } from './auth-errors';
import type { FieldBinding } from './use-form-fields';

export function EmailField(props: FieldBinding) {
  return <TextField label="Email" type="email" name="email" autoComplete="email" required {...props} />;
}

/** The account's password, as a password manager fills it in (signing in, confirming a deletion). */
export function PasswordField(props: FieldBinding) {
  return <TextField label="Password" type="password" name="password" autoComplete="current-password" required {...props} />;
}

/** A code Cognito mailed: 'Verification code' or 'Reset code'. */
export function CodeField({ label, ...binding }: FieldBinding & { label: string }) {
  return <TextField label={label} name="code" inputMode="numeric" autoComplete="one-time-code" required maxLength={12} {...binding} />;
}

export interface NewPasswordFieldsProps {
  password: FieldBinding;
  confirm: FieldBinding;
  labels?: { password: string; confirm: string };
  /** The inputs' names (password managers read them). */
  names?: { password: string; confirm: string };
}

/** A new password, with the rules as its hint, and the same again to confirm it. */
export function NewPasswordFields({
  password,
  confirm,
  labels = { password: 'New password', confirm: 'Confirm new password' },
  names = { password: 'password', confirm: 'confirmPassword' },
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        name={names.password}
        autoComplete="new-password"
        required
        hint={PASSWORD_RULES}
        {...password}
      />
      <TextField label={labels.confirm} type="password" name={names.confirm} autoComplete="new-password" required {...confirm} />
    </>
  );
}
