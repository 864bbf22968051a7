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
}

/**
 * Sends each change of a user's balance, jobs and media (a batch of the table's stream, in order) to that user's
 * open connections, and only theirs; forgets connections that are gone. A connection that fails otherwise throws,
 * so the batch is retried: messages carry whole states (a balance, a job's status), so a repeat is harmless.
 */
export async function fanOutChanges(deps: FanOutDeps, changes: readonly TableChange[]): Promise<FanOutResult> {
  const byOwner = new Map<string, LiveChange[]>();
  for (const change of changes) {
    const live = liveChangeOf(change);
    if (live) byOwner.set(live.owner, [...(byOwner.get(live.owner) ?? []), live]);
  }
  const result: FanOutResult = { messages: 0, sent: 0, gone: 0 };
  await Promise.all(
    [...byOwner].map(async ([owner, lives]) => {
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
    }),
  );
  return result;
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
