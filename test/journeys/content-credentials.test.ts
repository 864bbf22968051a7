/**
 * Content credentials through the embedded stack, read by the CAI's own reader (c2pa-wasm, not our code): every kind of
 * result (an SDXL image, each video model, a joined Wan clip) carries a C2PA manifest that validates against the
 * stack's signer, says it was made by a trained model and which one; what the downloads serve is that signed file; a
 * changed byte fails validation.
 */
import { PIXVERSE, WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { createdAction, readContentCredentials, type ReaderReport } from '../support/content-credentials';
import { grantCredits, json, pngOf, uploadStartImage, waitForStatus } from '../support/generation';
import { api, createUser, type TestUser } from '../support/users';

jest.setTimeout(180_000);

const TRAINED = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function generated(user: TestUser, path: string, body: Record<string, unknown>): Promise<{ file: Buffer; mediaId: string }> {
  const res = await api(user, path, { method: 'POST', body: JSON.stringify(body) });
  const started = await res.json();
  if (res.status !== 200) throw new Error(`${path} ${res.status}: ${JSON.stringify(started)}`);
  const done = await waitForStatus(user, started.predictionId, undefined, 120_000);
  if (done.status !== 'succeeded') throw new Error(`job ${done.status}: ${done.error}`);
  return { file: await download((done.imageUrl ?? done.videoUrl)!), mediaId: done.mediaId! };
}

function expectCredentials(report: ReaderReport, model: string) {
  // Trusted: the signature, every assertion's hash and the file's hash check out, and the chain ends at the anchor.
  expect(report.validation_state).toBe('Trusted');
  expect(report.validation_status ?? []).toEqual([]);
  expect(report.manifests[report.active_manifest!]!.claim_generator_info?.[0]?.name).toBe('Framewright');
  expect(createdAction(report)).toMatchObject({ action: 'c2pa.created', digitalSourceType: TRAINED, softwareAgent: { name: model } });
}

/** The file with one byte changed half way through (inside the picture or the video data, not the manifest). */
function tampered(file: Buffer): Buffer {
  const copy = Buffer.from(file);
  const at = Math.floor(copy.length / 2);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}

describe('content credentials', () => {
  it('an SDXL image carries valid credentials naming the model and its version; the download serves that file; a changed byte fails', async () => {
    const user = await createUser();
    const { file, mediaId } = await generated(user, '/api/generate-image', { prompt: 'a lighthouse at dusk' });
    const report = await readContentCredentials(file, 'image/png');
    expectCredentials(report, 'stability-ai/sdxl');
    expect(createdAction(report)!.softwareAgent).toMatchObject({ version: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const media = await json<{ items: Array<{ id: string; downloadUrl: string }> }>(api(user, '/api/media'));
    const item = media.items.find((m) => m.id === mediaId)!;
    expect((await download(item.downloadUrl)).equals(file)).toBe(true);

    const bad = await readContentCredentials(tampered(file), 'image/png');
    expect(bad.validation_state).not.toBe('Trusted');
    expect((bad.validation_status ?? []).map((s) => s.code)).toContain('assertion.dataHash.mismatch');
  });

  it('every video model: Wan text-to-video (a joined 10 s clip), Wan image-to-video and Pixverse carry valid credentials; a changed byte fails', async () => {
    const user = await createUser();
    await api(user, '/api/me'); // the account, made on first use
    await grantCredits(user, 30);
    const image = await uploadStartImage(user, await pngOf(640, 480, [20, 120, 220]));
    const cases: Array<[string, Record<string, unknown>]> = [
      [WAN_T2V, { model: WAN_T2V, prompt: 'waves at night', duration: 10 }],
      [WAN_I2V, { model: WAN_I2V, prompt: 'the sea moves', duration: 5, image }],
      [PIXVERSE, { model: PIXVERSE, prompt: 'a paper boat', duration: 5, quality: '540p' }],
    ];
    const files = await Promise.all(cases.map(([, body]) => generated(user, '/api/generate-video', body)));
    for (const [i, [model]] of cases.entries()) expectCredentials(await readContentCredentials(files[i]!.file, 'video/mp4'), model);

    const bad = await readContentCredentials(tampered(files[2]!.file), 'video/mp4');
    expect(bad.validation_state).not.toBe('Trusted');
    expect((bad.validation_status ?? []).map((s) => s.code)).toEqual(expect.arrayContaining([expect.stringMatching(/^assertion\.bmffHash\.mismatch$/)]));
  });
});
