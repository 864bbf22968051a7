import type { LiveChange, TableChange } from '../domain/live-changes';
import { liveChangeOf } from '../domain/live-changes';
import type { MediaIndex } from '../ports/jobs';
import type { ConnectionStore, LiveSender } from '../ports/live';
import type { MediaStore } from '../ports/media-store';
import { mediaUrl } from './steps/media-urls';

export interface FanOutDeps {
  connections: ConnectionStore;
  sender: LiveSender;
  store: MediaStore;
  media: Pick<MediaIndex, 'get'>;
  now: () => Date;
}

/** How long after $connect stored it a connection may still answer Gone because its handshake is not done. */
const HANDSHAKE_GRACE_MS = 30_000;

export interface FanOutResult {
  messages: number;
  sent: number;
  gone: number;
  /** The changes (their indexes) of owners whose connections could not be reached: to be delivered again. */
  failed: number[];
}

/**
 * Sends each change of a user's balance, jobs and media (a batch of the table's stream, in order) to that user's
 * open connections, and only theirs; forgets connections that are gone. An owner whose connections fail otherwise
 * has its changes reported as failed, so they are delivered again while other owners' are not held back: messages
 * carry whole states (a balance, a job's status), so a repeat is harmless.
 */
export async function fanOutChanges(deps: FanOutDeps, changes: readonly TableChange[]): Promise<FanOutResult> {
  const byOwner = new Map<string, { lives: LiveChange[]; indexes: number[] }>();
  changes.forEach((change, index) => {
    const live = liveChangeOf(change);
    if (!live) return;
    const of = byOwner.get(live.owner) ?? { lives: [], indexes: [] };
    of.lives.push(live);
    of.indexes.push(index);
    byOwner.set(live.owner, of);
  });
  const result: FanOutResult = { messages: 0, sent: 0, gone: 0, failed: [] };
  await Promise.all(
    [...byOwner].map(([owner, { lives, indexes }]) =>
      sendToOwner(deps, owner, lives, result).catch(() => {
        result.failed.push(...indexes);
      }),
    ),
  );
  result.failed.sort((a, b) => a - b);
  return result;
}

async function sendToOwner(deps: FanOutDeps, owner: string, lives: LiveChange[], result: FanOutResult): Promise<void> {
  const connections = await deps.connections.listFor(owner);
  if (connections.length === 0) return;
  const payloads = await Promise.all(lives.map((live) => payloadOf(deps, live)));
  result.messages += payloads.length;
  await Promise.all(
    connections.map(async (conn) => {
      // In order per connection: a job's 'processing' never overtakes its 'succeeded'.
      for (const data of payloads) {
        if ((await deps.sender.send(conn.connectionId, data)) === 'gone') {
          result.gone += 1;
          // API Gateway answers Gone while a $connect is still completing: such a young one is kept.
          if (deps.now().getTime() - Date.parse(conn.connectedAt) > HANDSHAKE_GRACE_MS) await deps.connections.remove(conn.connectionId, owner);
          return;
        }
        result.sent += 1;
      }
    }),
  );
}

async function payloadOf(deps: FanOutDeps, live: LiveChange): Promise<string> {
  const { message } = live;
  if (message.type === 'job' && message.job.status === 'succeeded') {
    let key = live.resultKey;
    if (!key && message.job.mediaId) key = (await deps.media.get(live.owner, message.job.mediaId))?.key;
    if (key) message.job.url = await mediaUrl(deps.store, { key });
  }
  if (message.type === 'media' && live.posterKey) message.added = { ...message.added, posterUrl: await mediaUrl(deps.store, { key: live.posterKey }) };
  return JSON.stringify(message);
}
