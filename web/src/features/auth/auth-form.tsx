import type { FormEvent, ReactNode } from 'react';
import { AuthShell, type AuthShellProps } from './auth-shell';
import { FormFeedback, type Feedback } from './form-feedback';

export interface AuthFormProps extends Omit<AuthShellProps, 'children'> {
  /** The form's accessible name, e.g. 'Log in'. */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  feedback: Feedback;
  /** The fields and buttons. */
  children: ReactNode;
  /** In the card after the form, e.g. a modal it opens. */
  after?: ReactNode;
}

/** An account page's form in its frame: the titled card, the feedback line, then the form. */
export function AuthForm({ label, onSubmit, feedback, children, after, ...shell }: AuthFormProps) {
  return (
    <AuthShell {...shell}>
      <FormFeedback feedback={feedback} />
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={label}>
        {children}
      </form>
      {after}
    </AuthShell>
  );
}
