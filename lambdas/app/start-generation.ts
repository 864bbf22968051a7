/**
 * Every generation, whatever the model or operation (POST /api/generations, and the spec's generate-image and
 * generate-video as aliases): the model's registry entry (contract/models/) says what the request may carry (a
 * prompt; start, end or source pictures) and checks, prices and plans it; startJob charges, asks the provider and
 * refunds on refusal. The account is made on first use (welcome credits), after the request is found valid.
 */
import { Messages } from '../../contract/errors';
import { MEDIA_KINDS } from '../../contract/media-kinds';
import { MODELS, modelBySlug, modelOfReplicate, replicateModelOf, resolveOptions, type ImageInputId, type ModelDef, type OptionValues } from '../../contract/models';
import type { GenerateImageRequest, GenerateVideoRequest, GenerationResponse } from '../../contract/schemas';
import { InvalidInput, NotFound } from '../domain/errors';
import type { MediaItem } from '../ports/jobs';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';
import { planGeneration } from './steps/plan-generation';
import { startJob, type JobRequest, type PictureRef, type StartJobDeps } from './steps/start-job';

export type StartGenerationDeps = GetAccountDeps & StartJobDeps;

/** A picture as a caller names it: a media id of one of their results, or an upload's key. */
export type PictureSource = { mediaId: string } | { upload: string };

export interface GenerationOrder {
  /** A registry id (GET /api/models). */
  model: string;
  prompt?: string;
  options?: OptionValues;
  /** A string is a media id when it looks like one (uploads' keys have slashes), else an upload's key. */
  inputs?: Partial<Record<ImageInputId, string | PictureSource>>;
}

const MEDIA_ID = /^[A-Za-z0-9_-]{1,64}$/;
const sourceOf = (v: string | PictureSource): PictureSource => (typeof v !== 'string' ? v : MEDIA_ID.test(v) ? { mediaId: v } : { upload: v });

/** `requestKey`: the call's Idempotency-Key, if it sent one (one job per key: steps/start-job.ts). */
export async function startGeneration(deps: StartGenerationDeps, caller: Caller, order: GenerationOrder, requestKey?: string): Promise<GenerationResponse> {
  const def = modelBySlug(order.model);
  if (!def) throw new InvalidInput(Messages.unknownModel(order.model, MODELS.filter((m) => !m.upcoming).map((m) => m.slug)));
  if (def.upcoming) throw new InvalidInput(Messages.modelComingSoon(def.name));
  const pictures = picturesOf(def, order.inputs ?? {});
  const prompt = order.prompt?.trim() ?? '';
  if (!def.inputs.prompt && prompt) throw new InvalidInput(Messages.modelTakesNoPrompt(def.name));
  if (def.inputs.prompt?.required && !prompt) throw new InvalidInput(MEDIA_KINDS[def.kind].promptMissing);
  const request = def.rerun || !def.inputs.prompt ? await fromSource(deps, caller.sub, def, pictures, order.options ?? {}) : planGeneration(def, prompt, order.options ?? {}, pictures);
  const account = await getOrCreateAccount(deps, caller);
  return startJob(deps, caller.sub, request, account.credits, requestKey);
}

/** The pictures of a request, each checked against the entry's inputs: taken, given where required, of the kind it takes. */
function picturesOf(def: ModelDef, inputs: Partial<Record<ImageInputId, string | PictureSource>>): PictureRef[] {
  const declared = def.inputs.images;
  const taken = Object.keys(declared);
  const out: PictureRef[] = [];
  for (const [id, value] of Object.entries(inputs) as Array<[ImageInputId, string | PictureSource | undefined]>) {
    if (value === undefined) continue;
    const d = declared[id];
    if (!d) throw new InvalidInput(Messages.modelTakesNoImage(def.name, id, taken));
    const source = sourceOf(value);
    if (d.from === 'result' && !('mediaId' in source)) throw new InvalidInput(Messages.imageInputResultOnly(d.label));
    out.push({ input: id, field: d.field, ...source });
  }
  for (const [id, d] of Object.entries(declared)) {
    if (d.required && !out.some((p) => p.input === id)) throw new InvalidInput(Messages.imageInputRequired(def.name, d.label, id));
  }
  return out;
}

/**
 * An operation on one of the caller's results: upscale keeps the source's prompt (the result shows what it is a
 * picture of); variations run the source's own model with its prompt and settings and a new seed.
 */
async function fromSource(deps: StartGenerationDeps, owner: string, def: ModelDef, pictures: PictureRef[], options: OptionValues): Promise<JobRequest> {
  const picture = pictures.find((p) => p.input === 'image')!;
  const source = await deps.media.get(owner, (picture as { mediaId: string }).mediaId);
  if (!source) throw new NotFound(Messages.mediaNotFound);
  if (!def.rerun) return { ...planGeneration(def, source.prompt, options, pictures), promptOfSource: true };
  const own = resolveOptions(def, options, () => 0);
  if (!own.ok) throw new InvalidInput(own.reason);
  const planned = planGeneration(modelToVary(def, source), source.prompt, settingsOf(source), []);
  return { ...planned, options: { ...planned.options, sourceMediaId: source.id } };
}

/** The entry that made the result, if it makes what the variations entry does and can again from its prompt and settings. */
function modelToVary(variations: ModelDef, source: MediaItem): ModelDef {
  const made = modelOfReplicate(source.model);
  if (!made || source.type !== variations.kind || made.operation !== 'generate' || made.rerun) throw new InvalidInput(Messages.cannotVary);
  return made;
}

/** A result's settings as its model takes them again: its own options but the seed (a new one is drawn), one image. */
function settingsOf(source: MediaItem): OptionValues {
  const def = modelOfReplicate(source.model)!;
  const out: Record<string, string | number> = {};
  for (const [id, o] of Object.entries(def.options)) {
    const v = source.options[id];
    if (o.kind === 'seed' || v === undefined || typeof v === 'boolean') continue;
    out[id] = v;
  }
  if (def.options.count) out.count = 1;
  return out;
}

/** POST /api/generate-image (the spec's route): SDXL with an optional uploaded start image. */
export function imageOrder(body: GenerateImageRequest): GenerationOrder {
  const { prompt, image, ...options } = body;
  return { model: 'sdxl', prompt, options, inputs: image ? { startImage: { upload: image } } : {} };
}

/**
 * POST /api/generate-video (the spec's route): the model named by its Replicate id. Wan's two Replicate models are
 * one entry whose plan picks by the start image, so naming one of them with the other's input is refused here.
 */
export function videoOrder(body: GenerateVideoRequest): GenerationOrder {
  const { prompt, model, image, startMediaId, ...options } = body;
  const def = modelOfReplicate(model);
  if (!def || def.kind !== 'video') throw new InvalidInput(`Unknown model: ${model}.`);
  const hasImage = Boolean(image || startMediaId);
  if (image && startMediaId) throw new InvalidInput(Messages.startImageTwice);
  if (hasImage && !def.inputs.images.startImage) throw new InvalidInput(`${def.name} takes no start image.`);
  // The model named must be the one the entry's plan runs with or without a start image (only Wan's differ).
  const runs = replicateModelOf(def, {}, hasImage) ?? def.name;
  if (runs !== model) throw new InvalidInput((hasImage ? Messages.startImageNotTaken : Messages.startImageNeeded)(model, def.name, runs));
  const start: PictureSource | undefined = startMediaId ? { mediaId: startMediaId } : image ? { upload: image } : undefined;
  return { model: def.slug, prompt, options, inputs: start ? { startImage: start } : {} };
}
