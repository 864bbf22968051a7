/**
 * The official `replicate` client (1.4.0) reads every model we run from the simulator as it reads it from Replicate:
 * `GET /v1/models/{owner}/{name}` answers the model with its `latest_version` and that version's OpenAPI schema, whose
 * Input is the schema file we keep for it (contract/models/schemas/), for community and official models alike
 * (Replicate's guidance reads a model's input from `latest_version.openapi_schema`). A model the registry adds is
 * checked here without a new line.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Replicate from 'replicate';
import { MODELS } from '../../contract/models';
import { startReplicateSimulator, type ReplicateSim } from '../../local/replicate-sim';

const TOKEN = 'r8_models_token';
let sim: ReplicateSim;
beforeAll(async () => {
  sim = await startReplicateSimulator({ apiToken: TOKEN, webhookSecret: `whsec_${randomBytes(32).toString('base64')}`, imageMs: 50 });
});
afterAll(() => sim?.close());

const RUN = [...new Map(MODELS.flatMap((def) => def.models).map((r) => [r.id, r])).values()];
const published = (file: string) =>
  (JSON.parse(readFileSync(join(__dirname, '../../contract/models/schemas', file), 'utf8')) as { schema: unknown }).schema;

describe('every model we run, as the official client reads it', () => {
  it.each(RUN.map((r) => [r.id, r] as const))('%s: latest_version with the Input schema we keep', async (_id, r) => {
    const replicate = new Replicate({ auth: TOKEN, baseUrl: sim.url });
    const [owner, name] = r.id.split('/') as [string, string];
    const model = await replicate.models.get(owner, name);
    expect(model).toMatchObject({ owner, name, visibility: 'public' });
    const latest = model.latest_version!;
    expect(latest).not.toBeNull();
    expect(latest.id).toMatch(/^[0-9a-f]{64}$/);
    if (r.version) expect(latest.id).toBe(r.version);
    const schema = latest.openapi_schema as { components: { schemas: { Input: unknown } } };
    expect(schema.components.schemas.Input).toEqual(published(r.schema));
  });
});
