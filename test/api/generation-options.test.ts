/**
 * Generation options on the embedded stack: the price the web shows (its button, from the registry) equals the
 * charge on every model's route (every combination is held to it at the use case, test/app/start-generation-prices); bad options are refused with a 400 naming the allowed values and
 * charge nothing; the seed is stored and shown on every result; 4 images cost 4 credits and give 4 results.
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { MAX_ACTIVE_JOBS } from '../../contract/catalog';
import { everyCombination, MODELS, priceOf, type ModelDef, type OptionValue } from '../../contract/models';
import { generateLabel } from '../../web/src/features/marketing/price-text';
import { api, createUser, stackEnv, type TestUser } from '../support/users';
import { grantCredits, imageData, json, jobItem, pngOf, providerIdsOf, uploadStartImage, userItems, waitForStatus } from '../support/generation';
import { settled } from '../support/jobs';

// The price loop runs a few orders per model, each job ended by cancelling it: a minute or two on a busy machine.
jest.setTimeout(240_000);

const balance = async (user: TestUser) => (await json<{ credits: number }>(api(user, '/api/me'))).credits;
const post = (user: TestUser, path: string, body: unknown) => api(user, path, { method: 'POST', body: JSON.stringify(body) });

/** What each user brings to the models that need a picture: an upload for start frames, a result of theirs to work on. */
interface Pictures {
  upload: string;
  result: string;
}

/**
 * The one route's request for a model and its options, with the pictures its entry requires (SDXL, the spec's
 * default, through its alias generate-image).
 */
function requestOf(model: ModelDef, prompt: string, options: Record<string, OptionValue>, pictures: Pictures): [string, Record<string, unknown>] {
  if (model.slug === 'sdxl') return ['/api/generate-image', { prompt, ...options }];
  const inputs = Object.fromEntries(
    Object.entries(model.inputs.images)
      .filter(([, d]) => d.required)
      .map(([id, d]) => [id, d.from === 'result' ? pictures.result : pictures.upload]),
  );
  return ['/api/generations', { model: model.slug, ...(model.inputs.prompt ? { prompt } : {}), options, inputs }];
}

/** The number in the button's "(N Credits)". */
const shownCost = (label: string) => Number(/\((\d+) Credits?\)/.exec(label)?.[1]);

describe('generation options', () => {
  it('charges exactly the price the button shows on every model, its dearest combination, and refuses one it cannot make', async () => {
    // Variations cost what their source costs (generations.test.ts holds that); every other entry has its own price.
    // Each model's route once with its dearest combination (the options that move the price, all of them set) and once
    // with a combination it cannot make: test/app/start-generation-prices holds every other combination at the use case.
    const models = MODELS.filter((m) => !m.upcoming && !m.rerun);
    const cases = models.flatMap((model) => {
      const all = everyCombination(model).map((combo) => ({ model, combo, price: priceOf(model, combo) }));
      const cost = (c: (typeof all)[number]) => (c.price.ok ? c.price.cost : -1);
      const dearest = all.reduce((a, b) => (cost(b) > cost(a) ? b : a));
      const refused = all.find((c) => !c.price.ok);
      return refused ? [dearest, refused] : [dearest];
    });
    // One user per MAX_ACTIVE_JOBS cases, so every job can stay running at once within the queue limit.
    const needsPictures = (u: number) =>
      cases.slice(u * MAX_ACTIVE_JOBS, (u + 1) * MAX_ACTIVE_JOBS).some((c) => Object.values(c.model.inputs.images).some((d) => d.required));
    // Made six at a time: thirty sign-ups at once overload a busy machine's local Cognito.
    const users: Array<TestUser & { pictures: Pictures }> = [];
    for (let first = 0; first < Math.ceil(cases.length / MAX_ACTIVE_JOBS); first += 6) {
      const batch = Array.from({ length: Math.min(6, Math.ceil(cases.length / MAX_ACTIVE_JOBS) - first) }, (_, k) => first + k);
      users.push(...(await Promise.all(batch.map(async (u) => {
        const user = await createUser();
        await balance(user); // the account is made on first use
        await grantCredits(user, 5000);
        // Only the few users whose cases need a picture make one (an upload, and a result to edit or upscale).
        if (!needsPictures(u)) return Object.assign(user, { pictures: { upload: '', result: '' } });
        const upload = await uploadStartImage(user, await pngOf(640, 360, [20, 40, 60]));
        const made = await json<{ predictionId: string }>(post(user, '/api/generations', { model: 'flux-fast', prompt: 'a source picture' }));
        const result = String((await settled(made.predictionId)).mediaId);
        return Object.assign(user, { pictures: { upload, result } });
      }))));
    }
    const before = await Promise.all(users.map((u) => balance(u)));
    const mismatches: string[] = [];
    // A job without a prompt (upscale) cannot be held by the simulator's [stuck]: it runs, and its credits are spent.
    const started: Array<{ id: string; user: TestUser; runs: boolean; cost: number; u: number }> = [];
    const charged = users.map(() => 0);
    // Six at a time: each job's own charge is read from its item, the totals from the balances.
    for (let i = 0; i < cases.length; i += 6) {
      await Promise.all(
        cases.slice(i, i + 6).map(async ({ model, combo, price }, j) => {
          const u = Math.floor((i + j) / MAX_ACTIVE_JOBS);
          const user = users[u]!;
          // [stuck]: the simulator accepts the prediction and renders nothing, so the run stays cheap.
          const [path, body] = requestOf(model, 'price check [stuck]', combo, user.pictures);
          const res = await post(user, path, body);
          const answer = await json<{ predictionId: string; error?: string }>(res);
          if (!price.ok) {
            if (res.status !== 400 || answer.error !== price.reason) mismatches.push(`${model.slug} ${JSON.stringify(combo)}: ${res.status} ${answer.error}`);
            return;
          }
          if (res.status !== 200) throw new Error(`${path} ${res.status} ${answer.error} for ${JSON.stringify(body)}`);
          const label = generateLabel(model.kind, price.cost, Number(combo.count ?? 1));
          const job = await jobItem(answer.predictionId);
          if (job?.cost !== shownCost(label)) mismatches.push(`${model.slug} ${JSON.stringify(combo)}: shown ${label}, charged ${job?.cost}`);
          charged[u] = charged[u]! + shownCost(label);
          started.push({ id: answer.predictionId, user, runs: !model.inputs.prompt, cost: shownCost(label), u });
        }),
      );
    }
    expect(mismatches).toEqual([]);
    expect(cases.filter((c) => c.price.ok).map((c) => c.model.slug)).toEqual(models.map((m) => m.slug));
    expect(await Promise.all(users.map((u) => balance(u)))).toEqual(before.map((b, u) => b - charged[u]!));

    // Every charged job ends: cancelling the stuck predictions refunds each in full, once.
    const env = stackEnv();
    const spent = users.map(() => 0);
    for (let i = 0; i < started.length; i += 6) {
      await Promise.all(
        started.slice(i, i + 6).map(async ({ id, user, runs, cost, u }) => {
          if (runs) {
            await waitForStatus(user, id, ['succeeded']);
            spent[u] = spent[u]! + cost;
            return;
          }
          // A batch is one prediction per image, and a canceled part ends only itself: every part is canceled.
          for (const providerId of await providerIdsOf(id)) {
            await fetch(`${env.REPLICATE_BASE_URL}/predictions/${providerId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}` } });
          }
          await waitForStatus(user, id, ['canceled']);
        }),
      );
    }
    expect(await Promise.all(users.map((u) => balance(u)))).toEqual(before.map((b, u) => b - spent[u]!));
  });

  it('refuses unknown options, values out of range and combinations a model cannot make with 400, charging nothing', async () => {
    const user = await createUser();
    const start = await balance(user);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['/api/generate-image', { prompt: 'x', aspectRatio: '2:1' }, /Aspect ratio must be 1:1, 16:9, 9:16, 4:3 or 3:4\./],
      ['/api/generate-image', { prompt: 'x', count: 5 }, /Images must be 1, 2, 3 or 4\./],
      ['/api/generate-image', { prompt: 'x', seed: 1.5 }, /Seed must be a whole number from 0 to 2147483647\./],
      ['/api/generate-image', { prompt: 'x', seed: '42' }, /Seed must be a whole number/],
      ['/api/generate-image', { prompt: 'x', steps: 50 }, /Unknown option: steps\. Allowed: prompt, image, aspectRatio, negativePrompt, seed, count\./],
      ['/api/generate-image', { prompt: 'x', style: 'anime' }, /Unknown option: style/],
      ['/api/generate-video', { prompt: 'x', model: 'wavespeedai/wan-2.1-t2v-480p', duration: 5, aspectRatio: '1:1' }, /Aspect ratio must be 16:9 or 9:16\./],
      ['/api/generate-video', { prompt: 'x', model: 'wavespeedai/wan-2.1-t2v-480p', duration: 5, style: 'anime' }, /Wan 2\.1 \(480p\) takes no style\. Its options: aspectRatio, duration, seed\./],
      ['/api/generate-video', { prompt: 'x', model: 'wavespeedai/wan-2.1-t2v-480p', duration: 5, negativePrompt: 'blur' }, /takes no negativePrompt/],
      ['/api/generate-video', { prompt: 'x', model: 'pixverse/pixverse-v4.5', duration: 8, quality: '1080p' }, /1080p is available only for 5-second clips\./],
      ['/api/generate-video', { prompt: 'x', model: 'pixverse/pixverse-v4.5', duration: 5, style: 'watercolor' }, /Style must be None, anime, 3d_animation, clay, comic or cyberpunk\./],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(user, path, body);
      const answer = await json<{ error: string }>(res);
      expect([res.status, answer.error]).toEqual([400, expect.stringMatching(message)]);
    }
    expect(await balance(user)).toBe(start);
    expect(await userItems(user.sub, 'LEDGER#')).toHaveLength(1);
  });

  it('makes 4 images for 4 credits, each shown with its own seed; the same seed and prompt give the same image', async () => {
    const user = await createUser();
    const start = await balance(user);
    const res = await post(user, '/api/generate-image', { prompt: 'four lighthouses', count: 4, aspectRatio: '16:9', seed: 4242, negativePrompt: 'fog' });
    const { predictionId, credits } = await json<{ predictionId: string; credits: number }>(res);
    expect(credits).toBe(start - 4);
    await waitForStatus(user, predictionId, ['succeeded']);
    const job = await jobItem(predictionId);
    expect(job).toMatchObject({ cost: 4, options: { aspectRatio: '16:9', width: 1024, height: 576, seed: 4242, count: 4, negativePrompt: 'fog' } });
    const media = await json<{ items: Array<{ url: string; options: Record<string, unknown>; prompt: string }> }>(api(user, '/api/media?type=image'));
    expect(media.items).toHaveLength(4);
    const files = await Promise.all(media.items.map(async (m) => Buffer.from(await (await fetch(m.url)).arrayBuffer())));
    expect(media.items.map((m) => Number(m.options.seed)).sort((a, b) => a - b)).toEqual([4242, 4243, 4244, 4245]);
    for (const [i, m] of media.items.entries()) {
      expect(m.options).toMatchObject({ aspectRatio: '16:9' });
      expect([files[i]!.readUInt32BE(16), files[i]!.readUInt32BE(20)]).toEqual([1024, 576]);
    }
    expect(new Set(files.map((f) => f.toString('base64'))).size).toBe(4);

    // The same seed again: the first image's pixels again (its file differs only by its signed content credentials,
    // which name the job and its time). No seed: the server draws one and stores it.
    const again = await json<{ predictionId: string }>(post(user, '/api/generate-image', { prompt: 'four lighthouses', aspectRatio: '16:9', seed: 4242, negativePrompt: 'fog' }));
    await waitForStatus(user, again.predictionId, ['succeeded']);
    const drawn = await json<{ predictionId: string }>(post(user, '/api/generate-image', { prompt: 'four lighthouses' }));
    expect((await jobItem(drawn.predictionId))?.options.seed).toEqual(expect.any(Number));
    const mediaId = (await jobItem(again.predictionId))?.mediaId;
    const list = await json<{ items: Array<{ id: string; url: string }> }>(api(user, '/api/media?type=image'));
    const same = Buffer.from(await (await fetch(list.items.find((m) => m.id === mediaId)!.url)).arrayBuffer());
    expect(files.some((f) => imageData(f).equals(imageData(same)))).toBe(true);
    expect(await balance(user)).toBe(start - 6);
  });
});
