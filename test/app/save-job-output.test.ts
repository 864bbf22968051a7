/**
 * save-job-output's checks with in-memory ports and the real ffmpeg: a video that decodes cleanly but is not the
 * length asked for fails and refunds; one that is saves with its probed size; a save past the job's deadline fails
 * without a download; a stalled download leaves the job open for the reconciler. Then, over the shared in-memory
 * ports: several images, a damaged one, a deleted output, and a 10 s clip's segments joined.
 */
import { IMAGE_MODEL, PIXVERSE, WAN_T2V } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { SEED_MAX } from '../../contract/models';
import sharp from 'sharp';
import { ffmpegMediaTools } from '../../lambdas/adapters/ffmpeg-media-tools';
import { runFfmpeg } from '../../lambdas/adapters/ffmpeg';
import { saveJobOutput, type SaveJobOutputDeps } from '../../lambdas/app/save-job-output';
import { RUN_GRACE_MS } from '../../lambdas/app/steps/job-deadline';
import { startGeneration } from '../../lambdas/app/start-generation';
import { startImageGeneration } from '../support/fakes/generation';
import { startVideoGeneration } from '../support/fakes/generation';
import type { Job, JobStore, MediaItem } from '../../lambdas/ports/jobs';
import type { CopyResult, MediaStore } from '../../lambdas/ports/media-store';
import { localFfmpegPath } from '../../local/shared/ffmpeg-path';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryContentCredentials } from '../support/fakes/content-credentials';
import { expectBooksBalanced } from '../support/fakes/credits';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';
import { CALLER, fakeVideo, generationSetup, png, WEBHOOK_URL, type GenerationContext } from '../support/fakes/generation';

jest.setTimeout(60_000);

/** An H.264 MP4 of exactly `frames` frames at `fps`. */
async function mp4(frames: number, fps: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'fw-test-'));
  try {
    const out = join(dir, 'v.mp4');
    await runFfmpeg(localFfmpegPath(), ['-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=size=320x240:rate=${fps}`, '-frames:v', String(frames), '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out], { timeoutMs: 20_000 });
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A media store whose provider URLs are files in a map, or a stall. */
function memoryStore(outputs: Map<string, Buffer | 'stall'>) {
  const objects = new Map<string, Buffer>();
  const store: MediaStore = {
    presignUpload: async () => {
      throw new Error('unused');
    },
    presignGet: async (key) => `memory://${key}`,
    head: async (key, bytes) => {
      const o = objects.get(key);
      return o && { size: o.length, start: o.subarray(0, bytes) };
    },
    copyFromUrl: async (url, key): Promise<CopyResult> => {
      const o = outputs.get(url);
      if (o === 'stall') return { ok: false, why: 'stalled' };
      if (!o) return { ok: false, why: 'gone' };
      objects.set(key, o);
      return { ok: true, bytes: o.length };
    },
    remove: async (key) => void objects.delete(key),
    removeAll: async () => 0,
    getBytes: async (key) => objects.get(key)!,
    put: async (key, body) => void objects.set(key, body),
  };
  return { store, objects };
}

/** A job store holding one job, with the real store's once-only terminal transitions. */
function memoryJobs(job: Job) {
  const state = { job: { ...job }, media: [] as MediaItem[] };
  const end = (status: Job['status'], extra: Partial<Job>) => {
    if (['succeeded', 'failed', 'canceled'].includes(state.job.status)) return false;
    state.job = { ...state.job, status, ...extra };
    return true;
  };
  const jobs = {
    get: async () => ({ ...state.job }),
    succeed: async (_j: Job, media: readonly MediaItem[]) => {
      const ok = end('succeeded', {});
      if (ok) state.media.push(...media);
      return ok;
    },
    failAndRefund: async (_j: Job, status: 'failed' | 'canceled', error: string) => end(status, { error, refunded: true }),
  } as unknown as JobStore;
  return { jobs, state };
}

function setup(job: Job, outputs: Map<string, Buffer | 'stall'>, now = new Date()) {
  const { store, objects } = memoryStore(outputs);
  const { jobs, state } = memoryJobs(job);
  const tools = ffmpegMediaTools({ binary: localFfmpegPath(), timeoutMs: 20_000 });
  const deps: SaveJobOutputDeps = {
    jobs,
    store,
    media: new MemoryMedia(),
    tools: async () => tools,
    credentials: async () => new MemoryContentCredentials(),
    provider: async () => {
      throw new Error('no provider call expected');
    },
    webhookUrl: 'http://unused',
    now: () => now,
    log: () => undefined,
  };
  return { deps, state, objects };
}

const videoJob = (model: string, options: Job['options'], cost: number): Job => ({
  id: 'job1',
  owner: 'u1',
  kind: 'video',
  model,
  prompt: 'waves',
  options,
  cost,
  status: 'processing',
  providerId: 'p1',
  createdAt: new Date().toISOString(),
  outputUrl: 'https://replicate.delivery/out.mp4',
  outputAt: Date.now(),
});

/** A 10 s clip started and its first segment's output recorded (`seg1.mp4`, a full 81-frame segment); `second`, if given, is what `seg2.mp4` will hold. */
async function clipAtFirstSegment(ctx: ReturnType<typeof generationSetup>, second?: ReturnType<typeof fakeVideo>): Promise<string> {
  const { predictionId: jobId } = await startVideoGeneration(ctx.deps, CALLER, { prompt: 'a long pan', model: WAN_T2V, duration: 10 });
  ctx.store.outputs.set('https://replicate.delivery/seg1.mp4', fakeVideo({ durationSeconds: 81 / 16, width: 832, height: 480, fps: 16, frames: 81 }));
  if (second) ctx.store.outputs.set('https://replicate.delivery/seg2.mp4', second);
  await ctx.jobs.recordOutput(jobId, 'pred-1', ['https://replicate.delivery/seg1.mp4'], ctx.clock.now().getTime());
  return jobId;
}

describe('saveJobOutput', () => {
  it('a 5 s Wan clip of 60 frames (81 asked) decodes cleanly but fails and refunds, and is not kept', async () => {
    const job = videoJob(WAN_T2V, { duration: 5, aspectRatio: '16:9', seed: 1 }, 8);
    const { deps, state, objects } = setup(job, new Map([[job.outputUrl!, await mp4(60, 16)]]));
    expect(await saveJobOutput(deps, job.id)).toBe('failed');
    expect(state.job).toMatchObject({ status: 'failed', error: 'The video did not have the length you asked for. 8 credits refunded.' });
    expect([...objects.keys()]).toEqual([]);
  });

  it('a 5 s Wan clip of 80 or 81 frames (within one of 81) is saved with its size and length', async () => {
    for (const frames of [80, 81]) {
      const job = videoJob(WAN_T2V, { duration: 5, aspectRatio: '16:9', seed: 1 }, 8);
      const { deps, state } = setup(job, new Map([[job.outputUrl!, await mp4(frames, 16)]]));
      expect(await saveJobOutput(deps, job.id)).toBe('saved');
      expect(state.media).toEqual([expect.objectContaining({ width: 320, height: 240, durationSeconds: expect.closeTo(frames / 16, 1), credits: 8 })]);
    }
  });

  it('Pixverse picks its own rate: 5 s at 24 fps is saved, 4 s is refused', async () => {
    const ok = videoJob(PIXVERSE, { duration: 5, quality: '540p', aspectRatio: '16:9', seed: 1 }, 6);
    const saved = setup(ok, new Map([[ok.outputUrl!, await mp4(120, 24)]]));
    expect(await saveJobOutput(saved.deps, ok.id)).toBe('saved');
    const short = videoJob(PIXVERSE, { duration: 5, quality: '540p', aspectRatio: '16:9', seed: 1 }, 6);
    const refused = setup(short, new Map([[short.outputUrl!, await mp4(96, 24)]]));
    expect(await saveJobOutput(refused.deps, short.id)).toBe('failed');
    expect(refused.state.job.error).toBe('The video did not have the length you asked for. 6 credits refunded.');
  });

  it('past the model’s maximum time and the grace, the save fails and refunds without downloading', async () => {
    const job = videoJob(WAN_T2V, { duration: 5, aspectRatio: '16:9', seed: 1 }, 8);
    const late = new Date(Date.parse(job.createdAt) + 900_000 + RUN_GRACE_MS + 1_000);
    const { deps, state } = setup(job, new Map([[job.outputUrl!, 'stall']]), late);
    expect(await saveJobOutput(deps, job.id)).toBe('failed');
    expect(state.job.error).toBe('The result could not be saved in time. 8 credits refunded.');
  });

  it('a stalled download is deferred: the job stays open, nothing refunded', async () => {
    const job = videoJob(WAN_T2V, { duration: 5, aspectRatio: '16:9', seed: 1 }, 8);
    const { deps, state } = setup(job, new Map([[job.outputUrl!, 'stall']]));
    expect(await saveJobOutput(deps, job.id)).toBe('deferred');
    expect(state.job.status).toBe('processing');
  });

  it('a several-image job whose second image is broken fails whole: the first, already copied, is removed too', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#08f' } }).png().toBuffer();
    const urls = ['https://replicate.delivery/out-0.png', 'https://replicate.delivery/out-1.png'];
    const job: Job = { ...videoJob(IMAGE_MODEL.id, { count: 2 }, 2), kind: 'image', outputUrl: urls[0]!, outputUrls: urls };
    const { deps, state, objects } = setup(job, new Map([[urls[0]!, png], [urls[1]!, png.subarray(0, png.length - 20)]]));
    expect(await saveJobOutput(deps, job.id)).toBe('failed');
    expect(state.job.error).toBe('The result arrived damaged or incomplete and could not be saved. 2 credits refunded.');
    expect([...objects.keys()]).toEqual([]);
  });
});

/** save-job-output over the shared in-memory ports: what the stream's copy leaves behind, and the credits after it. */
describe('saveJobOutput, through the jobs it ends', () => {
  async function recorded(ctx: GenerationContext, urls: string[], count = urls.length) {
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a pier', count });
    // A batch records its outputs once its parts have theirs (their prediction ids stay on the parts).
    await ctx.jobs.recordOutput(jobId, count > 1 ? undefined : ctx.provider.only().id, urls, ctx.clock.now().getTime());
    return jobId;
  }

  it('saves every image of a several-image job as its own item, once, and gives the queue place back', async () => {
    const ctx = generationSetup({ credits: 5 });
    for (const n of [0, 1]) ctx.store.outputs.set(`https://replicate.delivery/${n}.png`, await png(32, 16));
    const jobId = await recorded(ctx, ['https://replicate.delivery/0.png', 'https://replicate.delivery/1.png']);
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('skipped');
    const items = (await ctx.media.list(CALLER.sub, 10)).items;
    expect(items.map((m) => [m.jobId, m.width, m.height])).toEqual([[jobId, 32, 16], [jobId, 32, 16]]);
    // Each image shows its own prediction's seed (the batch's seeds follow one another).
    const seeds = (await ctx.jobs.get(jobId))!.batch!.map((b) => b.seed);
    expect(seeds[1]).toBe((seeds[0]! + 1) % (SEED_MAX + 1));
    expect(items.map((m) => m.options.seed).sort()).toEqual([...seeds].sort());
    // Each carries what the job cost, for the viewer's details.
    const { cost } = (await ctx.jobs.get(jobId))!;
    expect(items.map((m) => m.credits)).toEqual([cost, cost]);
    expect(new Set(items.map((m) => m.key)).size).toBe(2);
    for (const m of items) expect(ctx.store.objects.has(m.key)).toBe(true);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'succeeded', mediaId: expect.any(String) });
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => l.reason)).toEqual(['purchase', 'image']);
    // Each image kept carries its content credentials: the model, its pinned version, the job's date.
    const job = (await ctx.jobs.get(jobId))!;
    expect(ctx.credentials.signed).toEqual([0, 1].map(() => ({ type: 'image/png', provenance: { model: IMAGE_MODEL.id, version: IMAGE_MODEL.version, createdAt: job.createdAt } })));
  });

  it('names the results a job was made from: an edit opens its source and changes it; an animation was given its start frame', async () => {
    const ctx = generationSetup({ credits: 40 });
    const source = mediaItem(CALLER.sub, 'src-1');
    ctx.media.add(source);
    const sourceFile = await png(32, 16);
    await ctx.store.put(source.key, sourceFile, 'image/png');
    const edited = await startGeneration(ctx.deps, CALLER, { model: 'edit', prompt: 'make it night', inputs: { image: source.id } });
    const animated = await startGeneration(ctx.deps, CALLER, { model: 'pixverse', prompt: 'the pier sways', options: { duration: 5, quality: '540p' }, inputs: { startImage: source.id } });
    ctx.store.outputs.set('https://replicate.delivery/edit.png', await png(32, 16));
    ctx.store.outputs.set('https://replicate.delivery/clip.mp4', fakeVideo({ durationSeconds: 5, width: 960, height: 540, fps: 24, frames: 120 }));
    await ctx.jobs.recordOutput(edited.predictionId, ctx.provider.predictions.get('pred-1')!.id, ['https://replicate.delivery/edit.png'], ctx.clock.now().getTime());
    await ctx.jobs.recordOutput(animated.predictionId, ctx.provider.predictions.get('pred-2')!.id, ['https://replicate.delivery/clip.mp4'], ctx.clock.now().getTime());
    expect(await saveJobOutput(ctx.deps, edited.predictionId)).toBe('saved');
    expect(await saveJobOutput(ctx.deps, animated.predictionId)).toBe('saved');
    const named = { file: sourceFile, type: 'image/png', title: 'src-1.png' };
    expect(ctx.credentials.signed.map((s) => s.provenance)).toEqual([
      expect.objectContaining({ model: 'black-forest-labs/flux-kontext-pro', parent: { source: named, change: 'c2pa.edited' } }),
      expect.objectContaining({ model: PIXVERSE, inputs: [named] }),
    ]);
    expect(ctx.credentials.signed[1]!.provenance.parent).toBeUndefined();
  });

  it('fails the whole job and refunds once when one image is damaged, keeping none of its files', async () => {
    const ctx = generationSetup({ credits: 5 });
    ctx.store.outputs.set('https://replicate.delivery/0.png', await png());
    ctx.store.outputs.set('https://replicate.delivery/1.png', Buffer.from('<html>502 Bad Gateway</html>'));
    const jobId = await recorded(ctx, ['https://replicate.delivery/0.png', 'https://replicate.delivery/1.png']);
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('failed');
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'failed', refunded: true, error: Messages.jobRefunded(Messages.resultDamaged, 2) });
    expect(ctx.store.objects.size).toBe(0);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(5);
    expectBooksBalanced(ctx.credits);
  });

  it('refunds an output the provider already deleted', async () => {
    const ctx = generationSetup({ credits: 5 });
    const jobId = await recorded(ctx, ['https://replicate.delivery/deleted.png']);
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('failed');
    expect(await ctx.jobs.get(jobId)).toMatchObject({ error: Messages.jobRefunded(Messages.resultRemoved, 1) });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(5);
  });

  it('joins a 10 s clip: the first segment starts the second from its last frame, the last save joins them into one video', async () => {
    const ctx = generationSetup({ credits: 40 });
    const jobId = await clipAtFirstSegment(ctx, fakeVideo({ durationSeconds: 81 / 16, width: 832, height: 480, fps: 16, frames: 81 }));
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('continued');
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('skipped');
    const second = ctx.provider.predictions.get('pred-2')!;
    expect(second.request.webhookUrl).toBe(`${WEBHOOK_URL}?job=${jobId}&segment=2`);
    expect(second.request.input.image).toMatch(/^memory:\/\/bucket\/users\/user-0001\/videos\/segments\/.*-1-last\.png/);
    await ctx.jobs.recordOutput(jobId, 'pred-2', ['https://replicate.delivery/seg2.mp4'], ctx.clock.now().getTime());
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    const [clip] = (await ctx.media.list(CALLER.sub, 10)).items;
    expect(clip).toMatchObject({ type: 'video', durationSeconds: Math.round((161 / 16) * 100) / 100, posterKey: expect.stringMatching(/-poster\.jpg$/) });
    expect([...ctx.store.objects.keys()].sort()).toEqual([clip!.key, clip!.posterKey].sort());
    // Charged once for the whole clip, however many predictions made it.
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => l.reason)).toEqual(['purchase', 'video']);
  });

  it('a save that stopped after moving the clip to its second segment, before its prediction was made, makes it on the retry', async () => {
    const ctx = generationSetup({ credits: 40 });
    const jobId = await clipAtFirstSegment(ctx, fakeVideo({ durationSeconds: 81 / 16, width: 832, height: 480, fps: 16, frames: 81 }));
    // The write that starts the second segment lands, and the function dies before the create call (here: the
    // write's answer is lost): the stream delivers the record again.
    const startSegment = ctx.jobs.startSegment.bind(ctx.jobs);
    jest.spyOn(ctx.jobs, 'startSegment').mockImplementationOnce(async (...args) => {
      await startSegment(...args);
      throw new Error('socket hang up');
    });
    await expect(saveJobOutput(ctx.deps, jobId)).rejects.toThrow('socket hang up');
    expect(await ctx.jobs.get(jobId)).toMatchObject({ segment: 2, status: 'processing' });
    expect(ctx.provider.predictions.size).toBe(1);

    expect(await saveJobOutput(ctx.deps, jobId)).toBe('continued');
    const second = ctx.provider.predictions.get('pred-2')!;
    expect(second.request.webhookUrl).toBe(`${WEBHOOK_URL}?job=${jobId}&segment=2`);
    expect(second.request.input.image).toMatch(/^memory:\/\/bucket\/users\/user-0001\/videos\/segments\/.*-1-last\.png/);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ segment: 2, providerId: 'pred-2' });
    // Once made, a further delivery changes nothing.
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('skipped');
    expect(ctx.provider.predictions.size).toBe(2);

    await ctx.jobs.recordOutput(jobId, 'pred-2', ['https://replicate.delivery/seg2.mp4'], ctx.clock.now().getTime());
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => l.reason)).toEqual(['purchase', 'video']);
    expectBooksBalanced(ctx.credits);
  });

  it('a save that stopped after the second segment’s create call, before recording its id, keeps that prediction on the retry', async () => {
    const ctx = generationSetup({ credits: 40 });
    const jobId = await clipAtFirstSegment(ctx);
    jest.spyOn(ctx.jobs, 'markStarted').mockRejectedValueOnce(new Error('socket hang up'));
    await expect(saveJobOutput(ctx.deps, jobId)).rejects.toThrow('socket hang up');
    expect(ctx.provider.predictions.size).toBe(2);

    expect(await saveJobOutput(ctx.deps, jobId)).toBe('continued');
    // No second prediction for the segment: the one made is the job's.
    expect(ctx.provider.predictions.size).toBe(2);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ segment: 2, providerId: 'pred-2', status: 'starting' });
  });

  it('fails and refunds a clip whose second segment is not the length asked', async () => {
    const ctx = generationSetup({ credits: 40 });
    const jobId = await clipAtFirstSegment(ctx, fakeVideo({ durationSeconds: 3, width: 832, height: 480, fps: 16, frames: 48 }));
    await saveJobOutput(ctx.deps, jobId);
    await ctx.jobs.recordOutput(jobId, 'pred-2', ['https://replicate.delivery/seg2.mp4'], ctx.clock.now().getTime());
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('failed');
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'failed', error: expect.stringContaining(Messages.resultWrongLength) });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(40);
    expectBooksBalanced(ctx.credits);
  });
});
