/**
 * The origin secret's rotation, step by step, with in-memory ports: the labels Secrets Manager keeps, the header the
 * edge sends, the API's answer. (test/local/secrets.test.ts runs it end to end on the embedded stack.)
 */
import { rotateOriginSecret, type RotateOriginSecretDeps, type RotationStep } from '../../lambdas/app/rotate-origin-secret';
import type { SecretVersions } from '../../lambdas/ports/origin-rotation';

function fakeSecret(rotationEnabled = true) {
  const versions = new Map<string, { value?: string; stages: string[] }>([['v1', { value: JSON.stringify({ header: 'old' }), stages: ['AWSCURRENT'] }]]);
  const port: SecretVersions = {
    async describe() {
      return { rotationEnabled, versions: Object.fromEntries([...versions].map(([id, v]) => [id, [...v.stages]])) };
    },
    async value(_id, versionId, stage) {
      const v = versions.get(versionId);
      return v?.stages.includes(stage) ? v.value : undefined;
    },
    async putPending(_id, versionId, value) {
      versions.set(versionId, { value, stages: ['AWSPENDING'] });
    },
    async makeCurrent(_id, versionId, from) {
      versions.get(from)!.stages = ['AWSPREVIOUS'];
      versions.get(versionId)!.stages.push('AWSCURRENT');
    },
  };
  // What RotateSecret does before calling the function: the token's version, labelled AWSPENDING, with no value.
  const start = (token: string) => versions.set(token, { stages: ['AWSPENDING'] });
  return { port, versions, start };
}

function deps(secret: ReturnType<typeof fakeSecret>, answer = 200) {
  const sent: string[] = [];
  const slept: number[] = [];
  let clock = Date.parse('2026-11-25T12:00:00Z');
  const d: RotateOriginSecretDeps = {
    versions: secret.port,
    edge: { set: async (v) => void sent.push(v) },
    probe: async () => answer,
    newHeader: () => 'new',
    now: () => new Date(clock),
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    cacheSeconds: 60,
  };
  return { d, sent, slept };
}

const steps: RotationStep[] = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'];

describe('rotateOriginSecret', () => {
  it('makes a new value, lets the edge send it only after the cache age, tests it, then makes it current', async () => {
    const secret = fakeSecret();
    const { d, sent, slept } = deps(secret);
    secret.start('v2');
    for (const step of steps) await rotateOriginSecret(d, step, 'origin', 'v2');
    expect(JSON.parse(secret.versions.get('v2')!.value!)).toEqual({ header: 'new', since: '2026-11-25T12:00:00.000Z' });
    expect(secret.versions.get('v2')!.stages).toContain('AWSCURRENT');
    expect(secret.versions.get('v1')!.stages).toEqual(['AWSPREVIOUS']);
    expect(sent).toEqual(['new']);
    // 60 s of cache, with a margin for reads in flight.
    expect(slept).toEqual([67_000]);
  });

  it('repeats safely: a second createSecret keeps the value, a finished version changes nothing', async () => {
    const secret = fakeSecret();
    const { d, sent } = deps(secret);
    secret.start('v2');
    await rotateOriginSecret(d, 'createSecret', 'origin', 'v2');
    const first = secret.versions.get('v2')!.value;
    await rotateOriginSecret({ ...d, newHeader: () => 'other' }, 'createSecret', 'origin', 'v2');
    expect(secret.versions.get('v2')!.value).toBe(first);
    for (const step of steps.slice(1)) await rotateOriginSecret(d, step, 'origin', 'v2');
    await rotateOriginSecret(d, 'setSecret', 'origin', 'v2');
    expect(sent).toEqual(['new']);
  });

  it('stops before finishSecret when the API refuses the new value, leaving the old one current', async () => {
    const secret = fakeSecret();
    const { d } = deps(secret, 403);
    secret.start('v2');
    for (const step of steps.slice(0, 2)) await rotateOriginSecret(d, step, 'origin', 'v2');
    await expect(rotateOriginSecret(d, 'testSecret', 'origin', 'v2')).rejects.toThrow('The API refuses the new origin header (403)');
    expect(secret.versions.get('v1')!.stages).toEqual(['AWSCURRENT']);
  });

  it('refuses a secret without rotation, and a token that is not pending', async () => {
    await expect(rotateOriginSecret(deps(fakeSecret(false)).d, 'createSecret', 'origin', 'v1')).rejects.toThrow('is not enabled for rotation');
    await expect(rotateOriginSecret(deps(fakeSecret()).d, 'createSecret', 'origin', 'nope')).rejects.toThrow('has no stage for rotation');
  });
});
