/**
 * The generation use cases' ports in memory, wired once: credits and ledger (MemoryCredits), jobs and media
 * (MemoryJobs, MemoryMedia), the bucket (MemoryMediaStore), a Replicate-shaped provider and its webhooks, the
 * webhook inbox, video tools and a clock the test moves. Every use case of a job takes `deps` as it is.
 */
import sharp from 'sharp';
import type { ApplyGenerationWebhookDeps } from '../../../lambdas/app/apply-generation-webhook';
import type { CancelJobDeps } from '../../../lambdas/app/cancel-job';
import type { CheckJobStatusDeps } from '../../../lambdas/app/check-job-status';
import { DEFAULT_LIMITS, type ReconcileJobsDeps } from '../../../lambdas/app/reconcile-jobs';
import type { Caller } from '../../../lambdas/app/get-or-create-account';
import { imageOrder, startGeneration, videoOrder, type StartGenerationDeps } from '../../../lambdas/app/start-generation';
import type { GenerateImageRequest, GenerateVideoRequest } from '../../../contract/schemas';
import { MediaToolFailed, type MediaTools, type VideoInfo } from '../../../lambdas/ports/media-tools';
import { testClock } from './clock';
import { MemoryCredits } from './credits';
import { MemoryJobs, MemoryMedia } from './jobs';
import { MemoryMediaStore } from './media-store';
import { MemoryMetrics } from './metrics';
import { MemoryContentCredentials } from './content-credentials';
import { FakeModelProvider, fakeModelWebhooks } from './model-provider';
import { MemoryInbox } from './webhooks';

export const CALLER = { sub: 'user-0001', email: 'maker@example.com', firstName: 'Ada', lastName: 'Maker' };
export const WEBHOOK_URL = 'https://app.example.com/api/webhooks/replicate';

/** A real PNG of the given size (save-job-output decodes every image it keeps). */
export const png = (width = 8, height = 8): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#3366aa' } }).png().toBuffer();

/**
 * A "video" for the fake tools: its bytes are the facts ffmpeg would read from it. Anything else is a file the tools
 * cannot use (MediaToolFailed), as a cut MP4 is.
 */
export const fakeVideo = (info: VideoInfo): Buffer => Buffer.from(`FAKEVIDEO${JSON.stringify(info)}`);

function videoInfo(video: Buffer): VideoInfo {
  const text = video.toString();
  if (!text.startsWith('FAKEVIDEO')) throw new MediaToolFailed('Invalid data found when processing input');
  return JSON.parse(text.slice('FAKEVIDEO'.length)) as VideoInfo;
}

/** MediaTools over fakeVideo files: a join drops each later segment's first frame, as the ffmpeg adapter does. */
export const fakeMediaTools: MediaTools = {
  probe: async (v) => videoInfo(v),
  check: async (v) => videoInfo(v),
  lastFrame: async (v) => (videoInfo(v), png(4, 4)),
  poster: async (v) => (videoInfo(v), Buffer.from('JPEG poster')),
  join: async (parts) => {
    const infos = parts.map(videoInfo);
    const frames = infos.reduce((n, i, k) => n + i.frames - (k ? 1 : 0), 0);
    const first = infos[0]!;
    return fakeVideo({ ...first, frames, durationSeconds: frames / first.fps });
  },
};

export function generationSetup(opts: { credits?: number } = {}) {
  const clock = testClock();
  const credits = new MemoryCredits();
  if (opts.credits !== undefined) credits.seed(CALLER.sub, opts.credits);
  const media = new MemoryMedia();
  const jobs = new MemoryJobs(credits, media, clock.now);
  const store = new MemoryMediaStore();
  const provider = new FakeModelProvider(clock.now);
  const webhookState: { down?: boolean } = {};
  const inbox = new MemoryInbox();
  const metrics = new MemoryMetrics();
  const credentials = new MemoryContentCredentials();
  const logs: Array<{ message: string; details: Record<string, unknown> }> = [];
  const deps: StartGenerationDeps & CancelJobDeps & CheckJobStatusDeps & ApplyGenerationWebhookDeps & ReconcileJobsDeps = {
    accounts: credits,
    jobs,
    media,
    store,
    status: jobs,
    provider: async () => provider,
    webhookUrl: WEBHOOK_URL,
    webhooks: async () => fakeModelWebhooks(webhookState),
    inbox,
    tools: async () => fakeMediaTools,
    credentials: async () => credentials,
    limits: DEFAULT_LIMITS,
    metrics,
    now: clock.now,
    log: (message, details) => logs.push({ message, details }),
  };
  return { clock, credits, media, jobs, store, provider, webhookState, inbox, metrics, credentials, logs, deps };
}

export type GenerationContext = ReturnType<typeof generationSetup>;

/** POST /api/generate-image as its handler runs it: the spec's body translated into the one use case's order. */
export const startImageGeneration = async (deps: StartGenerationDeps, caller: Caller, body: GenerateImageRequest) => startGeneration(deps, caller, imageOrder(body));

/** POST /api/generate-video as its handler runs it. */
export const startVideoGeneration = async (deps: StartGenerationDeps, caller: Caller, body: GenerateVideoRequest) => startGeneration(deps, caller, videoOrder(body));
