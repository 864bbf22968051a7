/**
 * The push channel (docs/architecture.md, "Live"): one WebSocket per signed-in session on the app's origin at
 * LIVE_PATH. The browser offers two subprotocols, LIVE_PROTOCOL and its Cognito ID token (browsers cannot set
 * headers on a WebSocket); $connect verifies the token and answers with LIVE_PROTOCOL. The server then sends
 * the owner, and only the owner, one LiveMessage per change of their balance, jobs and media.
 *
 * Type-only for the web app: nothing here pulls in zod.
 */
import type { MediaKind } from './media-kinds';
import type { Grant } from './routes';

export const LIVE_PATH = '/live';
export const LIVE_PROTOCOL = 'framewright.v1';
/** API Gateway closes a WebSocket that carried nothing for 10 minutes: the browser sends this well before. */
export const LIVE_PING = '{"action":"ping"}';
export const LIVE_PING_INTERVAL_MS = 5 * 60_000;

export type LiveJobStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export interface LiveJob {
  predictionId: string;
  kind: MediaKind;
  status: LiveJobStatus;
  prompt: string;
  model: string;
  /** Epoch ms. */
  createdAt: number;
  /** At success: a short-lived URL of the result. */
  url?: string;
  mediaId?: string;
  error?: string;
}

export type LiveMessage =
  | { type: 'balance'; credits: number }
  | { type: 'job'; job: LiveJob }
  | { type: 'media'; change: 'added' | 'removed'; mediaId: string; kind: MediaKind; added?: MediaProbed };

/** What was probed from a new media item's file (items saved before this existed have none of it). */
export interface MediaProbed {
  width?: number;
  height?: number;
  durationSeconds?: number;
  /** A video's poster frame: a short-lived URL. */
  posterUrl?: string;
}

/** The WebSocket API's routes: each names its handler (lambdas/handlers/<handler>.ts) and grants, like HTTP routes. */
export interface LiveRouteDef {
  id: string;
  routeKey: '$connect' | '$disconnect' | '$default';
  handler: string;
  description: string;
  grants: readonly Grant[];
  timeoutSeconds?: number;
  memoryMb?: number;
}

export const LIVE_ROUTES: readonly LiveRouteDef[] = [
  { id: 'liveConnect', routeKey: '$connect', handler: 'live-connect', description: "WebSocket $connect: verify the ID token (and that its account was not deleted), store the connection", grants: ['table:read', 'table:write', 'secret:origin'] },
  { id: 'liveDisconnect', routeKey: '$disconnect', handler: 'live-disconnect', description: 'WebSocket $disconnect: forget the connection', grants: ['table:read', 'table:write'] },
  { id: 'liveDefault', routeKey: '$default', handler: 'live-default', description: 'WebSocket $default: keep-alive pings', grants: [] },
];
