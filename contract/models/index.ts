/**
 * The model registry: every model the product offers, one file each (or per family). Adding a model is its file
 * here, its line below and its schema fixture under schemas/.
 */
import { edit } from './edit';
import { fluxFast, fluxPro } from './flux';
import { kling } from './kling';
import { pixverse } from './pixverse';
import { sdxl } from './sdxl';
import type { ModelDef } from './types';
import { upscale } from './upscale';
import { variations } from './variations';
import { wan } from './wan';

export const MODELS: readonly ModelDef[] = [sdxl, fluxFast, fluxPro, wan, pixverse, kling, edit, upscale, variations];

export const VIDEO_MODELS = MODELS.filter((m) => m.kind === 'video');

export function modelBySlug(slug: string): ModelDef | undefined {
  return MODELS.find((m) => m.slug === slug);
}

/** The available entry that runs this Replicate model (owner/name). */
export function modelOfReplicate(id: string): ModelDef | undefined {
  return MODELS.find((m) => !m.upcoming && m.models.some((r) => r.id === id));
}

/** What made a saved result, by its Replicate model id: the name its label gives and the operation it did. */
export function madeWithOf(replicateId: string): { name: string; operation: ModelDef['operation'] } | undefined {
  const def = modelOfReplicate(replicateId);
  return def && { name: def.madeWith ?? def.name, operation: def.operation };
}

export * from './options';
export type * from './types';
export { sdxl, fluxFast, fluxPro, wan, pixverse, kling, edit, upscale, variations };
