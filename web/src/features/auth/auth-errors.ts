/**
 * Cognito (and Amplify) errors -> the readable {reason} of the spec's messages:
 * 'Signup error: {reason}', 'Login error: {reason}', 'Failed to send reset email: {reason}',
 * 'Failed to update password: {reason}'. Pure: no Amplify import, so it is cheap to test and reuse.
 */
import { NAME_RULE, PASSWORD_POLICY } from '../../../../contract/auth';

/** Which call failed: the same Cognito code reads differently per action. */
export type AuthAction =
  | 'signUp'
  | 'signIn'
  | 'confirmSignUp'
  | 'resendCode'
  | 'resetPassword'
  | 'confirmResetPassword'
  | 'changePassword'
  | 'session';

export const PASSWORD_RULES =
  `At least ${PASSWORD_POLICY.minLength} characters, with upper and lower case letters and a number.`;

export const AUTH_REASONS = {
  emailInUse: 'An account with this email already exists. Log in or reset your password.',
  wrongCredentials: 'Incorrect email or password.',
  wrongCurrentPassword: 'Your current password is incorrect.',
  userDisabled: 'This account has been disabled. Please contact support.',
  noAccount: 'No account was found with this email address.',
  tooManyRequests: 'Too many attempts. Please wait a few minutes and try again.',
  network: 'Network error. Check your connection and try again.',
  codeMismatch: 'The code is incorrect. Check the latest email we sent you.',
  codeExpired: 'The code has expired. Request a new one.',
  alreadyConfirmed: 'This email is already verified. You can log in.',
  notConfirmed: 'This email is not verified yet. Verify it first with the code we emailed you.',
  invalidEmail: 'Please enter a valid email address.',
  invalidName: NAME_RULE,
  emailDelivery: 'We could not send the email. Please try again in a moment.',
  sessionExpired: 'Your session has expired. Please log in again.',
  unknown: 'Something went wrong. Please try again.',
} as const;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
}

function parts(error: unknown): { name: string; message: string } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  return {
    name: typeof e.name === 'string' ? e.name : '',
    message: typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : '',
  };
}

/** Cognito's "Password did not conform with policy: Password must have uppercase characters" -> the rule. */
function passwordReason(message: string): string {
  const detail = /policy:\s*(.+)$/i.exec(message)?.[1]?.trim();
  if (detail) {
    const sentence = detail.endsWith('.') ? detail : `${detail}.`;
    return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)} ${PASSWORD_RULES}`;
  }
  return `Password does not meet the requirements. ${PASSWORD_RULES}`;
}

/** True when the error says the user or session is no longer valid (as opposed to a transient failure). */
export function isAuthRejection(error: unknown): boolean {
  const { name } = parts(error);
  return [
    'NotAuthorizedException',
    'UserNotFoundException',
    'TokenRevokedException',
    'PasswordResetRequiredException',
    'UserNotConfirmedException',
    'RefreshTokenReuseException',
    'UserUnAuthenticatedException',
  ].includes(name);
}

export function isUserDisabled(error: unknown): boolean {
  const { name, message } = parts(error);
  return name === 'NotAuthorizedException' && /disabled/i.test(message);
}

export function authErrorReason(error: unknown, action: AuthAction): string {
  const { name, message } = parts(error);
  switch (name) {
    case 'UsernameExistsException':
    case 'AliasExistsException':
      return AUTH_REASONS.emailInUse;
    case 'InvalidPasswordException':
      return passwordReason(message);
    case 'NotAuthorizedException':
      if (/disabled/i.test(message)) return AUTH_REASONS.userDisabled;
      if (action === 'changePassword') {
        return /token/i.test(message) ? AUTH_REASONS.sessionExpired : AUTH_REASONS.wrongCurrentPassword;
      }
      if (action === 'signIn') return AUTH_REASONS.wrongCredentials;
      if (action === 'confirmSignUp' && /current status is CONFIRMED/i.test(message)) return AUTH_REASONS.alreadyConfirmed;
      if (action === 'session') return AUTH_REASONS.sessionExpired;
      return message || AUTH_REASONS.unknown;
    case 'UserNotFoundException':
      return action === 'signIn' ? AUTH_REASONS.wrongCredentials : AUTH_REASONS.noAccount;
    case 'UserNotConfirmedException':
      return AUTH_REASONS.notConfirmed;
    case 'TooManyRequestsException':
    // The user pool's web ACL (per-IP limits on sign-up and sign-in) blocks with ForbiddenException.
    case 'ForbiddenException':
    case 'LimitExceededException':
    case 'TooManyFailedAttemptsException':
      return AUTH_REASONS.tooManyRequests;
    case 'NetworkError':
      return AUTH_REASONS.network;
    case 'CodeMismatchException':
      return AUTH_REASONS.codeMismatch;
    case 'ExpiredCodeException':
      return AUTH_REASONS.codeExpired;
    case 'CodeDeliveryFailureException':
      return AUTH_REASONS.emailDelivery;
    case 'UserUnAuthenticatedException':
      return AUTH_REASONS.sessionExpired;
    case 'UserLambdaValidationException':
      // Cognito's "PreSignUp failed with error <message>.": the only refusal our PreSignUp trigger makes is the name rule.
      if (/^PreSignUp failed/i.test(message)) return AUTH_REASONS.invalidName;
      return AUTH_REASONS.unknown;
    case 'InvalidParameterException':
      if (/already confirmed/i.test(message)) return AUTH_REASONS.alreadyConfirmed;
      if (/email/i.test(message)) return AUTH_REASONS.invalidEmail;
      return message || AUTH_REASONS.unknown;
    default:
      // fetch() itself failing (offline, DNS) surfaces as a TypeError in some browsers.
      if (name === 'TypeError' && /fetch|network/i.test(message)) return AUTH_REASONS.network;
      return message || AUTH_REASONS.unknown;
  }
}
