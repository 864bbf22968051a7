/**
 * Which changes of the table the push channel tells a user about, and what it says (contract/live.ts): their
 * balance, their jobs' statuses and their media list. Pure: the fan-out (app/fan-out-changes) reads the table's
 * stream, this decides, the sender sends. Every message is addressed to the item's owner and nobody else.
 */
import type { LiveJob, LiveMessage } from '../../contract/live';
import { isMediaKind } from '../../contract/media-kinds';
import { keys } from './keys';

/** One stream record's images, unmarshalled. */
export interface TableChange {
  old?: Record<string, unknown>;
  new?: Record<string, unknown>;
}

export interface LiveChange {
  owner: string;
  message: LiveMessage;
  /** A succeeded job's result in the media bucket: the sender presigns it into `message.job.url`. */
  resultKey?: string;
  /** A new video's poster in the media bucket: the sender presigns it into `message.added.posterUrl`. */
  posterKey?: string;
}

const USER_PREFIX = keys.user('');
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function ownerOfUserItem(item: Record<string, unknown>): string | undefined {
  const pk = str(item.pk);
  return pk?.startsWith(USER_PREFIX) ? pk.slice(USER_PREFIX.length) : undefined;
}

function liveJob(item: Record<string, unknown>): LiveJob | undefined {
  const status = str(item.status);
  const id = str(item.id);
  const kind = isMediaKind(item.kind) ? item.kind : undefined;
  if (!status || !id || !kind) return undefined;
  const job: LiveJob = {
    predictionId: id,
    kind,
    // The client never sees 'pending' (a job being submitted is starting, as check-status says).
    status: status === 'pending' ? 'starting' : (status as LiveJob['status']),
    prompt: str(item.prompt) ?? '',
    model: str(item.model) ?? '',
    createdAt: Date.parse(str(item.createdAt) ?? '') || 0,
  };
  const mediaId = str(item.mediaId);
  const error = str(item.error);
  if (mediaId) job.mediaId = mediaId;
  if (error) job.error = error;
  return job;
}

/** What one change means to its owner's open tabs, if anything. */
export function liveChangeOf(change: TableChange): LiveChange | undefined {
  const item = change.new ?? change.old;
  if (!item) return undefined;

  if (item.sk === keys.account && change.new) {
    const owner = ownerOfUserItem(change.new);
    const credits = change.new.credits;
    if (!owner || typeof credits !== 'number' || credits === change.old?.credits) return undefined;
    return { owner, message: { type: 'balance', credits } };
  }

  if (item.type === 'job' && change.new) {
    const owner = str(change.new.owner);
    const job = liveJob(change.new);
    const before = change.old ? liveJob(change.old) : undefined;
    // Only a new status is news (pending -> starting is not, the client sees both as starting), nor is the poll
    // bookkeeping (polledAt) and the like.
    if (!owner || !job || job.status === before?.status) return undefined;
    const resultKey = job.status === 'succeeded' ? str(change.new.mediaKey) : undefined;
    return { owner, message: { type: 'job', job }, ...(resultKey ? { resultKey } : {}) };
  }

  if (item.type === 'media' && (!change.old || !change.new)) {
    const owner = ownerOfUserItem(item);
    const mediaId = str(item.id);
    const kind = isMediaKind(item.kind) ? item.kind : undefined;
    if (!owner || !mediaId || !kind) return undefined;
    if (!change.new) return { owner, message: { type: 'media', change: 'removed', mediaId, kind } };
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    const probed = Object.fromEntries(
      Object.entries({ width: num(item.width), height: num(item.height), durationSeconds: num(item.durationSeconds) }).filter(([, v]) => v !== undefined),
    );
    const posterKey = str(item.posterKey);
    return {
      owner,
      message: { type: 'media', change: 'added', mediaId, kind, ...(Object.keys(probed).length ? { added: probed } : {}) },
      ...(posterKey ? { posterKey } : {}),
    };
  }
  return undefined;
}
