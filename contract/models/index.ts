/**
 * The model registry: every model the product offers, one file each (or per family). Adding a model is its file
 * here, its line below and its schema fixture under schemas/.
 */
import { kling } from './kling';
import { pixverse } from './pixverse';
import { sdxl } from './sdxl';
import type { ModelDef } from './types';
import { wan } from './wan';

export const MODELS: readonly ModelDef[] = [sdxl, wan, pixverse, kling];

export const VIDEO_MODELS = MODELS.filter((m) => m.kind === 'video');

export function modelBySlug(slug: string): ModelDef | undefined {
  return MODELS.find((m) => m.slug === slug);
}

/** The available entry that runs this Replicate model (owner/name). */
export function modelOfReplicate(id: string): ModelDef | undefined {
  return MODELS.find((m) => !m.upcoming && m.models.some((r) => r.id === id));
}

export * from './options';
export type * from './types';
export { sdxl, wan, pixverse, kling };
