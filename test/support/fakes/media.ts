import type { MediaItem } from '../../../lambdas/ports/jobs';

/** A saved result of `owner` (an image unless said), as save-job-output stores one. */
export function mediaItem(owner: string, id: string, extra: Partial<MediaItem> = {}): MediaItem {
  const type = extra.type ?? 'image';
  return {
    id,
    owner,
    type,
    key: `users/${owner}/${type}s/${id}.${type === 'image' ? 'png' : 'mp4'}`,
    prompt: `prompt of ${id}`,
    model: type === 'image' ? 'stability-ai/sdxl' : 'pixverse/pixverse-v4.5',
    options: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    jobId: `job-${id}`,
    ...extra,
  };
}
