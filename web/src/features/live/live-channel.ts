/**
 * The signed-in session's one push channel (contract/live.ts): a WebSocket on the app's origin at /live, offering
 * the ID token as a subprotocol. It reconnects after a drop with exponential backoff (1 s doubling to 30 s, with
 * jitter) and fetches a fresh token each time; it pings every 5 minutes so API Gateway's idle timeout never
 * closes it. Features subscribe to its messages and to whether it is up (they poll as the spec says meanwhile).
 *
 * Hand-written rather than a library: the browser's WebSocket plus a backoff timer is all it takes, and the
 * reconnecting-socket packages add nothing we need (the token must be fetched anew per attempt anyway).
 */
import { LIVE_PATH, LIVE_PING, LIVE_PING_INTERVAL_MS, LIVE_PROTOCOL, type LiveMessage } from '../../../../contract/live';

export type LiveState = 'off' | 'connecting' | 'open' | 'down';

export interface LiveChannelDeps {
  url: () => string;
  token: () => Promise<string | undefined>;
  WebSocketImpl?: typeof WebSocket;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  random?: () => number;
}

export interface LiveChannel {
  start(): void;
  stop(): void;
  state(): LiveState;
  onMessage(fn: (m: LiveMessage) => void): () => void;
  /** Called on every change of state; `open` after `down` means events may have been missed: catch up then. */
  onState(fn: (s: LiveState, before: LiveState) => void): () => void;
}

const MIN_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

export function createLiveChannel(deps: LiveChannelDeps): LiveChannel {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const random = deps.random ?? Math.random;
  const messageFns = new Set<(m: LiveMessage) => void>();
  const stateFns = new Set<(s: LiveState, before: LiveState) => void>();
  let state: LiveState = 'off';
  let socket: WebSocket | undefined;
  let retry: unknown;
  let ping: unknown;
  let attempts = 0;
  /** Bumped by stop() and every attempt, so a late event of an older socket changes nothing. */
  let epoch = 0;

  function setState(next: LiveState): void {
    if (next === state) return;
    const before = state;
    state = next;
    for (const fn of [...stateFns]) fn(next, before);
  }

  function clearTimers(): void {
    if (retry !== undefined) clearTimer(retry);
    if (ping !== undefined) clearTimer(ping);
    retry = ping = undefined;
  }

  function scheduleRetry(mine: number): void {
    if (mine !== epoch) return;
    setState('down');
    const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempts);
    attempts += 1;
    retry = setTimer(() => void connect(), base / 2 + random() * (base / 2));
  }

  function keepAlive(ws: WebSocket, mine: number): void {
    ping = setTimer(() => {
      if (mine !== epoch) return;
      try {
        ws.send(LIVE_PING);
      } catch {
        // closing: its close event reconnects
      }
      keepAlive(ws, mine);
    }, LIVE_PING_INTERVAL_MS);
  }

  async function connect(): Promise<void> {
    const mine = ++epoch;
    clearTimers();
    if (state !== 'down') setState('connecting');
    let token: string | undefined;
    try {
      token = await deps.token();
    } catch {
      token = undefined;
    }
    if (mine !== epoch) return;
    if (!token) return scheduleRetry(mine);
    const Impl = deps.WebSocketImpl ?? WebSocket;
    let ws: WebSocket;
    try {
      ws = new Impl(deps.url(), [LIVE_PROTOCOL, token]);
    } catch {
      return scheduleRetry(mine);
    }
    socket = ws;
    ws.onopen = () => {
      if (mine !== epoch) return;
      attempts = 0;
      keepAlive(ws, mine);
      setState('open');
    };
    ws.onmessage = (event) => {
      if (mine !== epoch || typeof event.data !== 'string') return;
      let message: LiveMessage;
      try {
        message = JSON.parse(event.data) as LiveMessage;
      } catch {
        return;
      }
      for (const fn of [...messageFns]) fn(message);
    };
    ws.onclose = () => {
      if (mine !== epoch) return;
      socket = undefined;
      clearTimers();
      scheduleRetry(mine);
    };
  }

  return {
    start() {
      if (state === 'off') void connect();
    },
    stop() {
      epoch += 1;
      clearTimers();
      attempts = 0;
      socket?.close();
      socket = undefined;
      setState('off');
    },
    state: () => state,
    onMessage(fn) {
      messageFns.add(fn);
      return () => messageFns.delete(fn);
    },
    onState(fn) {
      stateFns.add(fn);
      return () => stateFns.delete(fn);
    },
  };
}

/** The app's one channel, on this origin. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_PATH}`;
}
