/**
 * The address waiting for verification, remembered across pages and tabs: the cloud's verification
 * email links to /verify with the code only (Cognito cannot put the address in it), so /verify fills
 * the email field from here.
 */
const KEY = 'framewright.pendingVerificationEmail';

export function rememberPendingEmail(email: string): void {
  try {
    localStorage.setItem(KEY, email);
  } catch {
    // Storage disabled: the user types the address instead.
  }
}

export function pendingEmail(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetPendingEmail(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
}
