/**
 * What the browser keeps for the app, in one place: every key, and one way to read and write them that survives
 * storage being off (private modes and disabled storage throw on access), where each caller's fallback is to go on
 * without it. Keys are `framewright:<what>`, except the spec's own `activeJobs`.
 */
export const STORAGE_KEYS = {
  /** The running jobs this browser follows (the spec names it). */
  activeJobs: 'activeJobs',
  /** The address waiting for verification (/verify fills its email field from it). */
  pendingEmail: 'framewright:pending-email',
  /** Set once the user chose "Continue in background": the video generator's window does not open again. */
  jobsInBackground: 'framewright:jobs-in-background',
  /** Set once this browser was asked whether it may notify when a long job finishes (asked once, ever). */
  notifyAsked: 'framewright:notify-asked',
  /** Set at the first sign-in in this browser: a visitor without it is sent to Sign up, not Log in. */
  hasSignedIn: 'framewright:has-signed-in',
  /** The result a user picked for a generator's preview, as a media id. */
  pickedMedia: (sub: string, generator: string) => `framewright:picked-media:${sub}:${generator}`,
} as const;

type Area = 'local' | 'session';

/** The storage area, or undefined where it cannot be used. */
export function browserStorage(area: Area = 'local'): Storage | undefined {
  try {
    return (area === 'local' ? globalThis.localStorage : globalThis.sessionStorage) ?? undefined;
  } catch {
    return undefined;
  }
}

/** One stored string: read, written and removed without ever throwing (a full or disabled storage loses the value). */
export function storedValue(key: string, area: Area = 'local', storage: Storage | undefined = browserStorage(area)) {
  return {
    get(): string | undefined {
      try {
        return storage?.getItem(key) ?? undefined;
      } catch {
        return undefined;
      }
    },
    set(value: string | undefined): void {
      try {
        if (value === undefined) storage?.removeItem(key);
        else storage?.setItem(key, value);
      } catch {
        // Full or disabled storage: the value lasts until the page is left.
      }
    },
  };
}
