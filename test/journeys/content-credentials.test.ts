/**
 * Content credentials through the embedded stack, read by the CAI's own reader (c2pa-wasm, not our code): one output
 * of every orderable model and operation carries a C2PA manifest that validates against the stack's signer, says it
 * was made by a trained model and which one; what the downloads serve is that signed file; a changed byte fails
 * validation. A result made from another (an edit, an upscale, a variation, an animation, a joined Wan clip from a
 * start frame) names it as an ingredient, with that result's own manifest, which validates too.
 */
import { PIXVERSE, WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { createdAction, ingredientsOf, readContentCredentials, type ReaderReport } from '../support/content-credentials';
import { grantCredits, json, waitForStatus } from '../support/generation';
import { api, createUser, type TestUser } from '../support/users';

jest.setTimeout(300_000);

const TRAINED = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

let user: TestUser;
/** An SDXL result: the source of the edit, upscale, variation and animations below. */
let source: { file: Buffer; mediaId: string; report: ReaderReport };

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Orders one generation (POST /api/generations), waits for it, and answers its first file as the user downloads it. */
async function generated(body: Record<string, unknown>): Promise<{ file: Buffer; mediaId: string }> {
  const res = await api(user, '/api/generations', { method: 'POST', body: JSON.stringify(body) });
  const started = await res.json();
  if (res.status !== 200) throw new Error(`${JSON.stringify(body)} ${res.status}: ${JSON.stringify(started)}`);
  const done = await waitForStatus(user, started.predictionId, undefined, 180_000);
  if (done.status !== 'succeeded') throw new Error(`job ${done.status}: ${done.error}`);
  return { file: await download((done.imageUrl ?? done.videoUrl)!), mediaId: done.mediaId! };
}

/** What the first action says: created by a trained model, or (an edit, an upscale) opened and then changed by one. */
function modelAction(report: ReaderReport) {
  const manifest = report.manifests[report.active_manifest!]!;
  const actions = manifest.assertions.flatMap((a) => (a.label.startsWith('c2pa.actions') ? (a.data.actions ?? []) : []));
  return actions.find((a) => a.digitalSourceType === TRAINED);
}

function expectCredentials(report: ReaderReport, model: string) {
  // Trusted: the signature, every assertion's hash and the file's hash check out (an ingredient's manifest too), and
  // the chain ends at the anchor.
  expect(report.validation_state).toBe('Trusted');
  expect(report.validation_status ?? []).toEqual([]);
  expect(report.manifests[report.active_manifest!]!.claim_generator_info?.[0]?.name).toBe('Framewright');
  expect(modelAction(report)).toMatchObject({ digitalSourceType: TRAINED, softwareAgent: { name: model } });
}

/** The file with one byte changed half way through (inside the picture or the video data, not the manifest). */
function tampered(file: Buffer): Buffer {
  const copy = Buffer.from(file);
  const at = Math.floor(copy.length / 2);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}

beforeAll(async () => {
  user = await createUser();
  await api(user, '/api/me'); // the account, made on first use
  await grantCredits(user, 60);
});

describe('content credentials', () => {
  it('an SDXL image carries valid credentials naming the model and its version; the download serves that file; a changed byte fails', async () => {
    const { file, mediaId } = await generated({ model: 'sdxl', prompt: 'a lighthouse at dusk' });
    const report = await readContentCredentials(file, 'image/png');
    expectCredentials(report, 'stability-ai/sdxl');
    expect(createdAction(report)).toMatchObject({ action: 'c2pa.created', softwareAgent: { version: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(ingredientsOf(report)).toEqual([]);
    source = { file, mediaId, report };

    const media = await json<{ items: Array<{ id: string; downloadUrl: string }> }>(api(user, '/api/media'));
    const item = media.items.find((m) => m.id === mediaId)!;
    expect((await download(item.downloadUrl)).equals(file)).toBe(true);

    const bad = await readContentCredentials(tampered(file), 'image/png');
    expect(bad.validation_state).not.toBe('Trusted');
    expect((bad.validation_status ?? []).map((s) => s.code)).toContain('assertion.dataHash.mismatch');
  });

  it('FLUX fast and pro, an edit, an upscale and a variation: valid, each naming its model; the last three name the SDXL result as their ingredient', async () => {
    const image = source.mediaId;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['black-forest-labs/flux-schnell', { model: 'flux-fast', prompt: 'three red kites', options: { aspectRatio: '1:1' } }],
      ['black-forest-labs/flux-1.1-pro', { model: 'flux-pro', prompt: 'a glass harbour', options: { aspectRatio: '1:1' } }],
      ['black-forest-labs/flux-kontext-pro', { model: 'edit', prompt: 'make it snow', inputs: { image } }],
      ['nightmareai/real-esrgan', { model: 'upscale', options: { scale: 2 }, inputs: { image } }],
    ];
    // Four at a time: the queue's limit.
    const files = await Promise.all(cases.map(([, body]) => generated(body)));
    const variation = await generated({ model: 'variations', inputs: { image } });
    const reports = await Promise.all([...files, variation].map((f) => readContentCredentials(f.file, 'image/png')));
    for (const [i, [model]] of cases.entries()) expectCredentials(reports[i]!, model);
    expectCredentials(reports[4]!, 'stability-ai/sdxl');
    const [flux, pro, edited, upscaled, varied] = reports as [ReaderReport, ReaderReport, ReaderReport, ReaderReport, ReaderReport];
    expect([ingredientsOf(flux), ingredientsOf(pro)]).toEqual([[], []]);

    // The source, with its own (active) manifest carried along and found valid when it was taken.
    const ingredient = (relationship: string) => ({ title: `${image}.png`, format: 'image/png', relationship, active_manifest: source.report.active_manifest, validation_results: { activeManifest: expect.objectContaining({ failure: [] }) } });
    expect(ingredientsOf(edited)).toEqual([expect.objectContaining(ingredient('parentOf'))]);
    expect(ingredientsOf(upscaled)).toEqual([expect.objectContaining(ingredient('parentOf'))]);
    expect(ingredientsOf(varied)).toEqual([expect.objectContaining(ingredient('inputTo'))]);
    expect(edited.manifests[source.report.active_manifest!]).toBeDefined();
    // An edit opens its parent, then the model changes it; an upscale changes its size.
    const actionsOf = (r: ReaderReport) => r.manifests[r.active_manifest!]!.assertions.flatMap((a) => (a.label.startsWith('c2pa.actions') ? (a.data.actions ?? []) : [])).map((a) => a.action);
    expect([actionsOf(edited), actionsOf(upscaled), actionsOf(varied)]).toEqual([
      ['c2pa.opened', 'c2pa.edited'],
      ['c2pa.opened', 'c2pa.resized'],
      ['c2pa.created'],
    ]);
  });

  it('every video model: Wan text-to-video, a joined 10 s Wan clip and a Pixverse clip from the SDXL result, Kling from it; a changed byte fails', async () => {
    const startImage = source.mediaId;
    const cases: Array<[string, Record<string, unknown>]> = [
      [WAN_T2V, { model: 'wan', prompt: 'waves at night', options: { duration: 5 } }],
      [WAN_I2V, { model: 'wan', prompt: 'the light turns', options: { duration: 10 }, inputs: { startImage } }],
      [PIXVERSE, { model: 'pixverse', prompt: 'a paper boat', options: { duration: 5, quality: '540p' }, inputs: { startImage } }],
      ['kwaivgi/kling-v2.1', { model: 'kling', prompt: 'the sea rises', inputs: { startImage } }],
    ];
    const files = await Promise.all(cases.map(([, body]) => generated(body)));
    const reports = await Promise.all(files.map((f) => readContentCredentials(f.file, 'video/mp4')));
    for (const [i, [model]] of cases.entries()) expectCredentials(reports[i]!, model);
    expect(ingredientsOf(reports[0]!)).toEqual([]);
    for (const r of reports.slice(1)) {
      expect(ingredientsOf(r)).toEqual([expect.objectContaining({ title: `${startImage}.png`, relationship: 'inputTo', active_manifest: source.report.active_manifest })]);
    }

    const bad = await readContentCredentials(tampered(files[2]!.file), 'video/mp4');
    expect(bad.validation_state).not.toBe('Trusted');
    expect((bad.validation_status ?? []).map((s) => s.code)).toEqual(expect.arrayContaining([expect.stringMatching(/^assertion\.bmffHash\.mismatch$/)]));
  });
});
