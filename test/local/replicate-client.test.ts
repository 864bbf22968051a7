/**
 * The Replicate simulator as the official `replicate` client sees it: the calls the deploy guide and the client make
 * (the webhook secret, models and versions, the account), `Prefer: wait` with the result in the create answer,
 * `Cancel-After` deadlines, a failed prediction's error as Replicate words it, and outputs that follow their inputs
 * (same seed and input, same bytes, but for FLUX schnell's go_fast, which Replicate documents as not deterministic; an
 * upscale is its source at 2x).
 */
import Replicate from 'replicate';
import sharp from 'sharp';
import { FLUX_SCHNELL_MODEL } from '../../contract/models/flux';
import { REAL_ESRGAN_MODEL } from '../../contract/models/upscale';
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { waitForSim } from '../support/generation';
import { stackEnv } from '../support/users';

jest.setTimeout(120_000);

const client = () => new Replicate({ auth: LOCAL_SECRETS.replicateToken, baseUrl: stackEnv().REPLICATE_BASE_URL });
const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

describe('the replicate client against the simulator', () => {
  it('reads the default webhook secret, a model, a version and the account', async () => {
    const replicate = client();
    expect(await replicate.webhooks.default.secret.get()).toEqual({ key: LOCAL_SECRETS.replicateWebhookSecret });
    expect(await replicate.models.get('black-forest-labs', 'flux-schnell')).toMatchObject({ owner: 'black-forest-labs', name: 'flux-schnell', visibility: 'public' });
    const version = await replicate.models.versions.get('nightmareai', 'real-esrgan', REAL_ESRGAN_MODEL.version);
    expect(version.id).toBe(REAL_ESRGAN_MODEL.version);
    expect((version.openapi_schema as { components: { schemas: { Input: { properties: Record<string, unknown> } } } }).components.schemas.Input.properties.scale).toMatchObject({ type: 'number', default: 4 });
    expect(await replicate.accounts.current()).toMatchObject({ type: 'user', username: 'framewright-local' });
    await expect(replicate.models.get('acme', 'nothing')).rejects.toThrow(/404/);
  });

  it('answers a create with Prefer: wait once the prediction ended, output included; same seed and input (go_fast off) give the same bytes', async () => {
    const replicate = client();
    const input = { prompt: 'a paper boat', seed: 1234, output_format: 'png', num_outputs: 1, go_fast: false };
    const first = await replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input, wait: 30 });
    expect(first.status).toBe('succeeded');
    const again = await replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input, wait: 30 });
    const [a, b] = [first.output as string[], again.output as string[]];
    expect((await bytesOf(a[0]!)).equals(await bytesOf(b[0]!))).toBe(true);
    const other = await replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input: { ...input, seed: 1235 }, wait: 30 });
    expect((await bytesOf((other.output as string[])[0]!)).equals(await bytesOf(a[0]!))).toBe(false);
  });

  it('gives FLUX schnell with go_fast (its default) a different picture each run, seed or not, as Replicate documents', async () => {
    const replicate = client();
    const input = { prompt: 'a paper boat, fast', seed: 1234, output_format: 'png', num_outputs: 1 };
    const first = await replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input, wait: 30 });
    const again = await replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input: { ...input, go_fast: true }, wait: 30 });
    expect([first.status, again.status]).toEqual(['succeeded', 'succeeded']);
    expect((await bytesOf((first.output as string[])[0]!)).equals(await bytesOf((again.output as string[])[0]!))).toBe(false);
  });

  it('upscales a picture to its size times the scale', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const done = await client().predictions.create({
      version: REAL_ESRGAN_MODEL.version,
      input: { image: `data:image/png;base64,${png.toString('base64')}`, scale: 2 },
      wait: 30,
    });
    expect(done.status).toBe('succeeded');
    expect(await sharp(await bytesOf(done.output as string)).metadata()).toMatchObject({ width: 600, height: 400, format: 'png' });
  });

  it('words a failed prediction as Replicate does: run() says "Prediction failed:" once', async () => {
    await expect(client().run(FLUX_SCHNELL_MODEL.id as `${string}/${string}`, { input: { prompt: 'boom [fail]' } })).rejects.toThrow(/^Prediction failed: RuntimeError: simulated model error$/);
  });

  it('honours Cancel-After: a prediction still waiting for a machine at its deadline ends aborted; a bad deadline is refused', async () => {
    const env = stackEnv();
    const create = (cancelAfter: string) =>
      fetch(`${env.REPLICATE_BASE_URL}/models/${FLUX_SCHNELL_MODEL.id}/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}`, 'content-type': 'application/json', 'cancel-after': cancelAfter },
        body: JSON.stringify({ input: { prompt: 'waits for a machine [queued]' } }),
      });
    const res = await create('5s');
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const ended = await waitForSim(id, ['aborted', 'canceled']);
    expect(ended).toMatchObject({ status: 'aborted', started_at: null });
    const bad = await create('2s');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/at least 5 seconds/);
  });
});
