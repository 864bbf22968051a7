import type { OriginSecretValue } from '../../contract/origin';
import { Stage, type OriginHeaderTarget, type OriginProbe, type SecretVersions } from '../ports/origin-rotation';

export type RotationStep = 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';

export interface RotateOriginSecretDeps {
  versions: SecretVersions;
  edge: OriginHeaderTarget;
  probe: OriginProbe;
  newHeader: () => string;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  /** How long API functions keep the secret: the edge sends a new value only once every instance can know it. */
  cacheSeconds: number;
}

/**
 * One step of a Secrets Manager rotation of the origin secret, as Secrets Manager calls it (each step may be called
 * again; each is safe to repeat):
 * - createSecret: a new random header as the AWSPENDING version (its `since` is now);
 * - setSecret: once the API functions' caches have had time to see AWSPENDING (which they accept), CloudFront's API
 *   origins send it;
 * - testSecret: the API's own endpoint answers a request carrying it (anything but 403);
 * - finishSecret: AWSPENDING becomes AWSCURRENT; the old value, now AWSPREVIOUS, stays accepted for the overlap.
 */
export async function rotateOriginSecret(deps: RotateOriginSecretDeps, step: RotationStep, secretId: string, token: string): Promise<void> {
  const { rotationEnabled, versions } = await deps.versions.describe(secretId);
  if (!rotationEnabled) throw new Error(`Secret ${secretId} is not enabled for rotation`);
  const stages = versions[token];
  if (!stages) throw new Error(`Secret version ${token} has no stage for rotation of secret ${secretId}`);
  if (stages.includes(Stage.current)) return; // already finished: a repeated call changes nothing
  if (!stages.includes(Stage.pending)) throw new Error(`Secret version ${token} is not set as AWSPENDING for rotation of secret ${secretId}`);

  const pending = async (): Promise<OriginSecretValue> => {
    const value = await deps.versions.value(secretId, token, Stage.pending);
    if (!value) throw new Error(`Secret version ${token} has no value: createSecret has not run`);
    return JSON.parse(value) as OriginSecretValue;
  };

  switch (step) {
    case 'createSecret': {
      if (await deps.versions.value(secretId, token, Stage.pending)) return;
      const value: OriginSecretValue = { header: deps.newHeader(), since: deps.now().toISOString() };
      await deps.versions.putPending(secretId, token, JSON.stringify(value));
      return;
    }
    case 'setSecret': {
      const { header, since } = await pending();
      // The API accepts AWSPENDING as soon as it has read it; an instance may hold the secret read just before
      // createSecret for up to cacheSeconds (and a little more for the reads in flight).
      const readyAt = Date.parse(since ?? '') + deps.cacheSeconds * 1000 * 1.1 + 1000;
      const wait = readyAt - deps.now().getTime();
      if (wait > 0) await deps.sleep(wait);
      await deps.edge.set(header);
      return;
    }
    case 'testSecret': {
      const status = await deps.probe((await pending()).header);
      if (status === 403) throw new Error('The API refuses the new origin header (403): finishSecret would lock CloudFront out');
      return;
    }
    case 'finishSecret': {
      const current = Object.entries(versions).find(([, s]) => s.includes(Stage.current))?.[0];
      if (!current) throw new Error(`Secret ${secretId} has no AWSCURRENT version`);
      await deps.versions.makeCurrent(secretId, token, current);
      return;
    }
  }
}
