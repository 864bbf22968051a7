/** Where /login sends the user after signing in. */
export const DEFAULT_AFTER_LOGIN = '/generator';

/** The page to return to after login: only same-site paths, and never back to an account page. */
export function safeReturnPath(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) {
    return DEFAULT_AFTER_LOGIN;
  }
  if (/^\/(login|signup|verify|reset-password)(?:[/?#]|$)/.test(from)) return DEFAULT_AFTER_LOGIN;
  return from;
}
