import { randomBytes, randomInt } from 'node:crypto';

/**
 * Ids that carry their creation time: `<epoch ms>-<random>`. Sorting by id sorts by time, and an item's
 * sort key (`MEDIA#<createdAt>#<id>`) can be rebuilt from its id alone.
 */
export function newId(now: Date = new Date()): string {
  return `${now.getTime()}-${randomBytes(6).toString('hex')}`;
}

export function createdAtOf(id: string): string | undefined {
  const ms = Number(id.split('-')[0]);
  return /^\d{13}-[0-9a-f]{12}$/.test(id) && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** A seed for a request that named none: uniform over the range every model takes (0..SEED_MAX). */
export function randomSeed(max: number): number {
  return randomInt(0, max + 1);
}
