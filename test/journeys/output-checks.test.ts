/**
 * Success means a usable file, and every save has a deadline: outputs that are not what the model promises (a cut
 * MP4, random bytes or an HTML error page as the image) fail and refund with a clear message and leave nothing in
 * the bucket; a download that stalls holds neither its job past the model's maximum time nor the other saves.
 * Each broken output comes from a Replicate simulator marker, through the webhook, the stream and the reconciler.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { IMAGE_MODEL, maxRunMsOf, WAN_T2V } from '../../contract/catalog';
import { s3Client } from '../../lambdas/adapters/aws-clients';
import { COPY_STALL_MS } from '../../lambdas/adapters/s3-media-store';
import { jobItem, providerIdOf, simPrediction, waitForSim } from '../support/generation';
import { backdateJob, drainStreams, expectExact, runReconciler, settled } from '../support/jobs';
import { api, createAccount, stackEnv, type TestUser, WELCOME_CREDITS } from '../support/users';

jest.setTimeout(120_000);

const START = WELCOME_CREDITS;
const newUser = createAccount;

async function started(res: Promise<Response>): Promise<string> {
  const r = await res;
  const body = await r.json();
  if (r.status !== 200) throw new Error(`generate ${r.status}: ${JSON.stringify(body)}`);
  return body.predictionId as string;
}

const image = (user: TestUser, prompt: string) => started(api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt }) }));
const video = (user: TestUser, prompt: string) =>
  started(api(user, '/api/generate-video', { method: 'POST', body: JSON.stringify({ model: WAN_T2V, prompt, duration: 5 }) }));

/** The objects kept under the user's prefix (a refunded job must leave none). */
async function objectsOf(user: TestUser): Promise<string[]> {
  const res = await s3Client().send(new ListObjectsV2Command({ Bucket: stackEnv().MEDIA_BUCKET, Prefix: `users/${user.sub}/` }));
  return (res.Contents ?? []).map((o) => o.Key!);
}

describe('success means a usable file', () => {
  it.each([
    ['300 KB of random bytes as the image ([garbage])', '[garbage]'],
    ['an HTML error page served with 200 as the image ([html])', '[html]'],
    ['a PNG cut in half ([truncated])', '[truncated]'],
  ])('%s: failed and refunded, nothing kept', async (_name, marker) => {
    const user = await newUser();
    const id = await image(user, `a lighthouse ${marker}`);
    const job = await settled(id);
    expect(job).toMatchObject({ status: 'failed', error: 'The result arrived damaged or incomplete and could not be saved. 1 credit refunded.' });
    await expectExact(user, id, { start: START, cost: 1, succeeded: false });
    expect(await objectsOf(user)).toEqual([]);
  });

  it('a cut MP4 (ffmpeg decodes part of its frames, then "partial file"): failed and refunded, nothing kept', async () => {
    const user = await newUser();
    const id = await video(user, `waves [truncated]`);
    const job = await settled(id);
    expect(job).toMatchObject({ status: 'failed', error: 'The result arrived damaged or incomplete and could not be saved. 8 credits refunded.' });
    await expectExact(user, id, { start: START, cost: 8, succeeded: false });
    expect(await objectsOf(user)).toEqual([]);
  });

  it('random bytes as the video: failed and refunded', async () => {
    const user = await newUser();
    const id = await video(user, `waves [garbage]`);
    const job = await settled(id);
    expect(job.error).toBe('The result arrived damaged or incomplete and could not be saved. 8 credits refunded.');
    await expectExact(user, id, { start: START, cost: 8, succeeded: false });
  });
});

describe('every save has a deadline', () => {
  it('a stalled output ([stall]) is given up in seconds without slowing another save, and fails and refunds past the model’s maximum time', async () => {
    const [staller, other] = await Promise.all([newUser(), newUser()]);
    // Both finish together: the healthy output's save comes while the stalled download hangs.
    const [stalled, fine] = await Promise.all([image(staller, 'a quay [stall]'), image(other, 'a quay')]);
    const finePrediction = await waitForSim(await providerIdOf(fine), ['succeeded']);

    // The other job is saved as soon as its output is there: the stall costs it at most the stall cut-off.
    const job = await settled(fine);
    const waited = Date.now() - Date.parse(String(finePrediction.completed_at));
    expect(job.status).toBe('succeeded');
    expect(waited).toBeLessThan(COPY_STALL_MS + 5_000);
    await expectExact(other, fine, { start: START, cost: 1, succeeded: true });

    // The stalled one was given up (not retried in the stream) and waits, open, for the reconciler.
    await drainStreams();
    await runReconciler();
    expect(await jobItem(stalled)).toMatchObject({ status: 'processing', outputUrl: expect.any(String) });

    // Past the model's maximum time (and the grace) the reconciler ends it, though an output is recorded.
    await backdateJob(stalled, maxRunMsOf(IMAGE_MODEL.id) + 3 * 60_000);
    const ended = await settled(stalled, { reconcile: true });
    expect(ended).toMatchObject({ status: 'failed', error: 'The result could not be saved in time. 1 credit refunded.' });
    await expectExact(staller, stalled, { start: START, cost: 1, succeeded: false });
    expect((await simPrediction(String(ended.providerId))).status).toBe('succeeded');
  });
});
