/**
 * The 10 s Wan clip on the embedded stack: two 5 s segments (the second image-to-video from the first's last frame)
 * joined by save-job-output into one MP4, charged 16 once, refunded 16 once if any part fails.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { ffmpegMediaTools } from '../../lambdas/adapters/ffmpeg-media-tools';
import { localFfmpegPath } from '../../local/shared/ffmpeg-path';
import { grantCredits, jobItem, json, pngOf, postWebhook, signedWebhook, simPrediction, uploadStartImage, userItems } from '../support/generation';
import { drainStreams, expectExact, runReconciler, settled, simPredictionsOf } from '../support/jobs';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

jest.setTimeout(120_000);

const tools = ffmpegMediaTools({ binary: localFfmpegPath(), timeoutMs: 20_000 });

async function start(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const res = await api(user, '/api/generate-video', { method: 'POST', body: JSON.stringify({ duration: 10, ...body }) });
  const out = (await res.json()) as { predictionId: string };
  if (res.status !== 200) throw new Error(`generate-video ${res.status}: ${JSON.stringify(out)}`);
  return out.predictionId;
}

/** A new user with 16 credits, who starts a 10 s text-to-video clip. */
async function tenSecondsFromText(prompt: string): Promise<{ user: TestUser; jobId: string }> {
  const user = await createUser();
  await api(user, '/api/me');
  await grantCredits(user, 16 - 10);
  return { user, jobId: await start(user, { model: WAN_T2V, prompt }) };
}

/** Waits until the job runs its second segment with a prediction id. */
async function inSegment2(jobId: string) {
  for (let i = 0; i < 300; i++) {
    await drainStreams();
    const job = await jobItem(jobId);
    if (job?.segment === 2 && job.providerId) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Job ${jobId} never reached its second segment`);
}

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

describe('a 10 s Wan clip', () => {
  it('is two predictions (the second from the first last frame), joined into one ~10 s MP4 at 16 fps, charged 16 once', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    await grantCredits(user, 32 - 10);
    const image = await uploadStartImage(user, await pngOf(480, 832, [200, 90, 30]));
    const [fromText, fromImage] = await Promise.all([
      start(user, { model: WAN_T2V, prompt: 'a lighthouse at dusk', aspectRatio: '9:16' }),
      start(user, { model: WAN_I2V, prompt: 'the tide comes in', image }),
    ]);
    for (const [jobId, model] of [
      [fromText, WAN_T2V],
      [fromImage, WAN_I2V],
    ] as const) {
      const job = await settled(jobId, { timeoutMs: 90_000 });
      expect(job.status).toBe('succeeded');
      const predictions = await simPredictionsOf(jobId);
      expect(predictions).toHaveLength(2);
      const [first, second] = await Promise.all([simPrediction(job.pastProviderIds[0]), simPrediction(job.providerId)]);
      expect(first.model).toBe(model);
      expect(second.model).toBe(WAN_I2V);
      // The second segment starts from the first's last frame, in the same orientation, with the same prompt and seed.
      expect(new URL(second.input.image).pathname).toContain(`/users/${user.sub}/videos/segments/${jobId}-1-last.png`);
      expect(second.input).toMatchObject({ prompt: first.input.prompt, seed: first.input.seed, num_frames: 81, frames_per_second: 16, max_area: '480x832' });
      expect(new URL(second.webhook).searchParams.get('segment')).toBe('2');

      const media = (await userItems(user.sub, 'MEDIA#')).filter((m) => m.jobId === jobId);
      expect(media).toHaveLength(1);
      expect(media[0]!.durationSeconds).toBeGreaterThanOrEqual(9.5);
      expect(media[0]!.durationSeconds).toBeLessThanOrEqual(10.5);
      expect(media[0]).toMatchObject({ width: 480, height: 832, posterKey: media[0]!.key.replace(/\.mp4$/, '-poster.jpg') });
      const status = await json<{ videoUrl: string }>(api(user, `/api/check-status/${jobId}`));
      const info = await tools.probe(await download(status.videoUrl));
      expect(info.fps).toBeGreaterThanOrEqual(16);
      expect(info.frames).toBe(161);
      expect(info.durationSeconds).toBeGreaterThanOrEqual(9.5);
      expect(info.durationSeconds).toBeLessThanOrEqual(10.5);
    }
    // Each job: one charge of 16, no refund, one media item; together they spent the 32 credits (the balance is 0,
    // which expectExact reads as "16 before this job, 16 spent").
    await expectExact(user, fromText, { start: 16, cost: 16, succeeded: true });
    await expectExact(user, fromImage, { start: 16, cost: 16, succeeded: true });

    // The list carries the probed metadata and a presigned poster.
    const list = await json<{ items: Array<{ id: string; posterUrl?: string; durationSeconds?: number; width?: number }> }>(api(user, '/api/media?type=video'));
    expect(list.items).toHaveLength(2);
    for (const item of list.items) {
      expect(item.durationSeconds).toBeGreaterThan(9.5);
      const poster = await fetch(item.posterUrl!);
      expect(poster.status).toBe(200);
      expect(poster.headers.get('content-type')).toBe('image/jpeg');
    }
  });

  it('refunds 16 exactly once when the second segment fails', async () => {
    const { user, jobId } = await tenSecondsFromText('a storm [fail-from-image]');
    const job = await settled(jobId, { timeoutMs: 90_000 });
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/16 credits refunded\.$/);
    expect(await simPredictionsOf(jobId)).toHaveLength(2);
    await expectExact(user, jobId, { start: 16, cost: 16, succeeded: false });
  });

  it('starts one second segment whatever the first segment webhook does (duplicated, late)', async () => {
    const { user, jobId } = await tenSecondsFromText('fireflies [dup]');
    const job = await inSegment2(jobId);
    // A late copy of the first segment's success under a new delivery id, twice.
    const first = await simPrediction(job.pastProviderIds[0]);
    for (let i = 0; i < 2; i++) {
      const body = JSON.stringify(first);
      expect((await postWebhook(jobId, body, signedWebhook(body))).status).toBe(200);
    }
    await drainStreams();
    const done = await settled(jobId, { timeoutMs: 90_000 });
    expect(done.status).toBe('succeeded');
    expect(await simPredictionsOf(jobId)).toHaveLength(2);
    await expectExact(user, jobId, { start: 16, cost: 16, succeeded: true });
  });

  it('is settled by the reconciler when stuck in its second segment (max run time from that segment start)', async () => {
    const { user, jobId } = await tenSecondsFromText('a glacier [stuck-from-image]');
    const job = await inSegment2(jobId);
    await runReconciler();
    expect(['starting', 'processing']).toContain((await jobItem(jobId))!.status);
    // As if the second segment had run for 20 minutes (Wan's maximum is 15, plus the grace period).
    await dynamo().send(
      new UpdateCommand({
        TableName: stackEnv().TABLE_NAME,
        Key: { pk: `JOB#${jobId}`, sk: 'JOB' },
        UpdateExpression: 'SET segmentAt = :at',
        ExpressionAttributeValues: { ':at': Number(job.segmentAt) - 20 * 60_000 },
      }),
    );
    const done = await settled(jobId, { reconcile: true });
    expect(done.status).toBe('failed');
    expect((await simPrediction(job.providerId)).status).toBe('canceled');
    await expectExact(user, jobId, { start: 16, cost: 16, succeeded: false });
  });
});
