/**
 * A one-time message for the next page, across a navigation that leaves the app (after deleting the account the
 * browser lands on the prerendered home page). Kept in sessionStorage: this tab only, read once; with storage off
 * there is no notice (it is a courtesy).
 */
import { STORAGE_KEYS, storedValue } from './browser-storage';

export const FlashNotices = {
  accountDeleted: 'Your account and all its data have been deleted. Thank you for trying Framewright.',
} as const;
export type FlashNotice = keyof typeof FlashNotices;

const flash = () => storedValue(STORAGE_KEYS.flash, 'session');

export function setFlash(notice: FlashNotice): void {
  flash().set(notice);
}

/** Whether a notice waits for this page (main.ts then hydrates a public page at once, to show it). */
export function hasFlash(): boolean {
  return flash().get() !== undefined;
}

/** The pending notice's text, forgotten once read. */
export function takeFlash(): string | undefined {
  const key = flash().get();
  flash().set(undefined);
  return key && key in FlashNotices ? FlashNotices[key as FlashNotice] : undefined;
}
