/**
 * A one-time message for the next page, across a navigation that leaves the app (after deleting the account the
 * browser lands on the prerendered home page). Kept in sessionStorage: this tab only, read once.
 */
const KEY = 'framewright:flash';

export const FlashNotices = {
  accountDeleted: 'Your account and all its data have been deleted. Thank you for trying Framewright.',
} as const;
export type FlashNotice = keyof typeof FlashNotices;

export function setFlash(notice: FlashNotice): void {
  try {
    sessionStorage.setItem(KEY, notice);
  } catch {
    // Storage may be off (private mode): the notice is a courtesy.
  }
}

/** Whether a notice waits for this page (main.ts then hydrates a public page at once, to show it). */
export function hasFlash(): boolean {
  try {
    return sessionStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

/** The pending notice's text, forgotten once read. */
export function takeFlash(): string | undefined {
  try {
    const key = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return key && key in FlashNotices ? FlashNotices[key as FlashNotice] : undefined;
  } catch {
    return undefined;
  }
}
