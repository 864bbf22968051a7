/**
 * The marketing entry's use of the History API. Entries are written the way react-router writes them
 * (`{ usr, key, idx }`) and scroll positions are kept where its ScrollRestoration keeps them, so when the
 * app's router takes over the tab it reads our entries as its own: back to a marketing page restores its
 * scroll position, and the other way round after a reload.
 */
export interface HistoryLocation {
  pathname: string;
  search: string;
  hash: string;
  /** Identifies the history entry ('default' for one we did not write, as react-router does). */
  key: string;
  /** The entry's state (react-router's `location.state`). */
  state: unknown;
}

interface EntryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

const entryState = (): EntryState => (window.history.state ?? {}) as EntryState;

export function currentLocation(): HistoryLocation {
  const { pathname, search, hash } = window.location;
  const { usr, key } = entryState();
  return { pathname, search, hash, key: key ?? 'default', state: usr };
}

const createKey = () => Math.random().toString(36).slice(2, 10);

/**
 * Numbers the entry the page was opened on, as react-router does when it starts, and gives it a key of
 * its own (react-router would call it 'default'), so its scroll position is not shared with other entries.
 */
export function adoptEntry(): void {
  const state = entryState();
  if (typeof state.idx === 'number' && state.key) return;
  window.history.replaceState({ ...state, key: state.key ?? createKey(), idx: state.idx ?? 0 }, '');
}

/** Pushes (or replaces with) a same-origin path such as '/faq?x=1#y'. */
export function writeEntry(path: string, state: unknown, replace: boolean): void {
  const idx = entryState().idx ?? 0;
  if (replace) window.history.replaceState({ usr: state, key: createKey(), idx }, '', path);
  else window.history.pushState({ usr: state, key: createKey(), idx: idx + 1 }, '', path);
}

// react-router's ScrollRestoration storage: entry key -> scrollY.
const SCROLL_STORAGE_KEY = 'react-router-scroll-positions';
let positions: Record<string, number> | undefined;

function savedPositions(): Record<string, number> {
  if (!positions) {
    try {
      const stored: unknown = JSON.parse(sessionStorage.getItem(SCROLL_STORAGE_KEY) ?? '{}');
      positions = stored && typeof stored === 'object' ? (stored as Record<string, number>) : {};
    } catch {
      positions = {};
    }
  }
  return positions;
}

export function rememberScroll(key: string): void {
  savedPositions()[key] = window.scrollY;
}

export function savedScroll(key: string): number | undefined {
  const y = savedPositions()[key];
  return typeof y === 'number' ? y : undefined;
}

/** Writes the positions to sessionStorage (on page hide, and before the app takes over). */
export function persistScroll(): void {
  try {
    sessionStorage.setItem(SCROLL_STORAGE_KEY, JSON.stringify(savedPositions()));
  } catch {
    // Storage full or disabled: positions are then only kept for this page's life.
  }
}

/** Scrolls to the element a '#id' hash names; false when there is none. */
export function scrollToHash(hash: string): boolean {
  if (!hash) return false;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return false;
  }
  const el = document.getElementById(id);
  el?.scrollIntoView();
  return Boolean(el);
}
