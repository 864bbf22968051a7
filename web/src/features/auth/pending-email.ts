/**
 * The address waiting for verification, remembered across pages and tabs: the cloud's verification
 * email links to /verify with the code only (Cognito cannot put the address in it), so /verify fills
 * the email field from here (with storage off, the user types the address instead).
 */
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';

const pending = () => storedValue(STORAGE_KEYS.pendingEmail);

export function rememberPendingEmail(email: string): void {
  pending().set(email);
}

export function pendingEmail(): string {
  return pending().get() ?? '';
}

export function forgetPendingEmail(): void {
  pending().set(undefined);
}
