import { useState } from 'react';
import { requestPasswordReset, resendVerificationCode } from './amplify-auth';
import { authErrorReason } from './auth-errors';
import { AuthMessages } from './auth-messages';
import type { Feedback, FeedbackAction } from './form-feedback';

/** Which code Cognito mails: a new email verification code, or a password reset code. */
export type CodeKind = 'verification' | 'passwordReset';

async function send(kind: CodeKind, address: string): Promise<string> {
  if (kind === 'verification') {
    await resendVerificationCode(address);
    return AuthMessages.codeResent(address);
  }
  await requestPasswordReset(address);
  return AuthMessages.resetEmailSent;
}

function failure(kind: CodeKind, err: unknown): string {
  return kind === 'verification'
    ? AuthMessages.resendFailed(authErrorReason(err, 'resendCode'))
    : AuthMessages.resetEmailFailed(authErrorReason(err, 'resetPassword'));
}

export interface SendCodeOptions {
  kind: CodeKind;
  setFeedback: (feedback: Feedback) => void;
  /** A link to offer with the success line, e.g. to the page where the code is entered. */
  next?: (address: string) => FeedbackAction;
}

/** 'Send a new code' and 'Forgot Password?': mails a code to the form's email and says how that went. */
export function useSendCode({ kind, setFeedback, next }: SendCodeOptions) {
  const [sending, setSending] = useState(false);

  async function sendCode(email: string) {
    const address = email.trim();
    if (!address) return setFeedback({ variant: 'error', text: AuthMessages.enterEmailFirst });
    setSending(true);
    setFeedback(undefined);
    try {
      const text = await send(kind, address);
      setFeedback({ variant: 'success', text, ...(next ? { action: next(address) } : {}) });
    } catch (err) {
      setFeedback({ variant: 'error', text: failure(kind, err) });
    } finally {
      setSending(false);
    }
  }

  return { sending, sendCode };
}
