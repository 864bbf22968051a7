/**
 * The models the simulator knows, with input schemas modelled on the real ones on Replicate, and a small
 * JSON-schema-like validator that answers the way Replicate does (gojsonschema-style `invalid_fields`).
 */
import { IMAGE_MODEL, PIXVERSE, WAN_I2V, WAN_T2V } from '../../contract/catalog';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'uri';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  default?: string | number | boolean;
}

export type InputSchema = Readonly<Record<string, FieldSpec>>;

export interface InvalidField {
  type: string;
  field: string;
  description: string;
}

export type ModelKind = 'image' | 'video';

export interface SimModel {
  /** owner/name */
  id: string;
  /** The version id reported on predictions: SDXL's real id; official models report "hidden" as Replicate does. */
  version: string;
  /** True for official models (created with POST /v1/models/{owner}/{name}/predictions). */
  official: boolean;
  kind: ModelKind;
  schema: InputSchema;
  /** Checks that span several fields (e.g. Pixverse 1080p only at 5 s). */
  crossCheck?: (input: Record<string, unknown>) => InvalidField[];
}

const seed: FieldSpec = { type: 'integer' };

export const SDXL_SCHEMA: InputSchema = {
  prompt: { type: 'string', required: true },
  negative_prompt: { type: 'string', default: '' },
  image: { type: 'uri' },
  mask: { type: 'uri' },
  width: { type: 'integer', minimum: 128, maximum: 1024, multipleOf: 8, default: 1024 },
  height: { type: 'integer', minimum: 128, maximum: 1024, multipleOf: 8, default: 1024 },
  num_outputs: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
  scheduler: {
    type: 'string',
    enum: ['DDIM', 'DPMSolverMultistep', 'HeunDiscrete', 'KarrasDPM', 'K_EULER_ANCESTRAL', 'K_EULER', 'PNDM'],
    default: 'K_EULER',
  },
  num_inference_steps: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  guidance_scale: { type: 'number', minimum: 1, maximum: 50, default: 7.5 },
  prompt_strength: { type: 'number', minimum: 0, maximum: 1, default: 0.8 },
  seed,
  refine: { type: 'string', enum: ['no_refiner', 'expert_ensemble_refiner', 'base_image_refiner'], default: 'no_refiner' },
  high_noise_frac: { type: 'number', minimum: 0, maximum: 1, default: 0.8 },
  refine_steps: { type: 'integer' },
  apply_watermark: { type: 'boolean', default: true },
  lora_scale: { type: 'number', minimum: 0, maximum: 1, default: 0.6 },
  replicate_weights: { type: 'string' },
  disable_safety_checker: { type: 'boolean', default: false },
};

/**
 * Wan 2.1 480p as wavespeedai publishes it on Replicate: the clip length is num_frames / frames_per_second (there is
 * no duration input); the frame is 832x480 or 480x832 (t2v: aspect_ratio; i2v: the start image's shape fitted into
 * max_area).
 */
const wanCommon: InputSchema = {
  prompt: { type: 'string', required: true },
  num_frames: { type: 'integer', minimum: 81, maximum: 100, default: 81 },
  frames_per_second: { type: 'integer', minimum: 5, maximum: 24, default: 16 },
  fast_mode: { type: 'string', enum: ['Off', 'Balanced', 'Fast'], default: 'Balanced' },
  sample_steps: { type: 'integer', minimum: 1, maximum: 40, default: 30 },
  sample_guide_scale: { type: 'number', minimum: 0, maximum: 10, default: 5 },
  sample_shift: { type: 'number', minimum: 1, maximum: 10, default: 3 },
  seed,
  lora_weights: { type: 'string' },
  lora_scale: { type: 'number', minimum: 0, maximum: 4, default: 1 },
};

export const WAN_I2V_SCHEMA: InputSchema = {
  ...wanCommon,
  image: { type: 'uri', required: true },
  max_area: { type: 'string', enum: ['832x480', '480x832'], default: '832x480' },
};

export const WAN_T2V_SCHEMA: InputSchema = {
  ...wanCommon,
  negative_prompt: { type: 'string', default: '' },
  aspect_ratio: { type: 'string', enum: ['16:9', '9:16'], default: '16:9' },
};

export const PIXVERSE_SCHEMA: InputSchema = {
  prompt: { type: 'string', required: true },
  negative_prompt: { type: 'string', default: '' },
  quality: { type: 'string', enum: ['360p', '540p', '720p', '1080p'], default: '540p' },
  duration: { type: 'integer', enum: [5, 8], default: 5 },
  aspect_ratio: { type: 'string', enum: ['16:9', '9:16', '1:1'], default: '16:9' },
  image: { type: 'uri' },
  last_frame_image: { type: 'uri' },
  motion_mode: { type: 'string', enum: ['normal', 'smooth'], default: 'normal' },
  style: { type: 'string', enum: ['None', 'anime', '3d_animation', 'clay', 'cyberpunk', 'comic'], default: 'None' },
  sound_effect_switch: { type: 'boolean', default: false },
  sound_effect_content: { type: 'string' },
  seed,
};

/** Pixverse's rules across fields, as its model page states them. */
function pixverseCrossCheck(input: Record<string, unknown>): InvalidField[] {
  const out: InvalidField[] = [];
  if (input.quality === '1080p' && input.duration === 8) {
    out.push({ type: 'invalid_combination', field: 'input.duration', description: '1080p quality only supports a duration of 5 seconds' });
  }
  if (input.motion_mode === 'smooth' && input.duration !== 5) {
    out.push({ type: 'invalid_combination', field: 'input.motion_mode', description: 'smooth motion is only available with a duration of 5 seconds' });
  }
  if (input.motion_mode === 'smooth' && input.quality === '1080p') {
    out.push({ type: 'invalid_combination', field: 'input.motion_mode', description: '1080p quality does not support smooth motion' });
  }
  if (input.last_frame_image !== undefined && input.image === undefined) {
    out.push({ type: 'invalid_combination', field: 'input.last_frame_image', description: 'last_frame_image must be used with image' });
  }
  return out;
}

export const SIM_MODELS: readonly SimModel[] = [
  { id: IMAGE_MODEL.id, version: IMAGE_MODEL.version, official: false, kind: 'image', schema: SDXL_SCHEMA },
  { id: WAN_I2V, version: 'hidden', official: true, kind: 'video', schema: WAN_I2V_SCHEMA },
  { id: WAN_T2V, version: 'hidden', official: true, kind: 'video', schema: WAN_T2V_SCHEMA },
  {
    id: PIXVERSE,
    version: 'hidden',
    official: true,
    kind: 'video',
    schema: PIXVERSE_SCHEMA,
    crossCheck: pixverseCrossCheck,
  },
];

export function modelByVersion(version: string): SimModel | undefined {
  return SIM_MODELS.find((m) => m.version === version);
}

export function officialModel(id: string): SimModel | undefined {
  return SIM_MODELS.find((m) => m.official && m.id === id);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function isUri(v: string): boolean {
  if (/^data:[^,]*,/.test(v)) return true;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const fmt = (v: string | number) => (typeof v === 'string' ? `"${v}"` : String(v));

/** Validates `input` against `schema`; unknown fields are ignored, as on Replicate. */
export function validateInput(model: SimModel, input: unknown): InvalidField[] {
  if (input === undefined || input === null) {
    return [{ type: 'required', field: '(root)', description: 'input is required' }];
  }
  if (typeof input !== 'object' || Array.isArray(input)) {
    return [{ type: 'invalid_type', field: 'input', description: `Invalid type. Expected: object, given: ${typeName(input)}` }];
  }
  const rec = input as Record<string, unknown>;
  const errors: InvalidField[] = [];
  for (const [name, spec] of Object.entries(model.schema)) {
    const field = `input.${name}`;
    const v = rec[name];
    if (v === undefined || v === null) {
      if (spec.required) errors.push({ type: 'required', field: 'input', description: `${name} is required` });
      continue;
    }
    const expected = spec.type === 'uri' ? 'string' : spec.type;
    const ok =
      expected === 'string' ? typeof v === 'string'
      : expected === 'integer' ? typeof v === 'number' && Number.isInteger(v)
      : expected === 'number' ? typeof v === 'number' && Number.isFinite(v)
      : typeof v === 'boolean';
    if (!ok) {
      errors.push({ type: 'invalid_type', field, description: `Invalid type. Expected: ${expected}, given: ${typeName(v)}` });
      continue;
    }
    if (spec.type === 'uri' && !isUri(v as string)) {
      errors.push({ type: 'format', field, description: "Does not match format 'uri'" });
      continue;
    }
    if (spec.enum && !spec.enum.includes(v as string | number)) {
      errors.push({ type: 'enum', field, description: `${field} must be one of the following: ${spec.enum.map(fmt).join(', ')}` });
      continue;
    }
    if (typeof v === 'number') {
      if (spec.minimum !== undefined && v < spec.minimum) {
        errors.push({ type: 'number_gte', field, description: `Must be greater than or equal to ${spec.minimum}` });
      }
      if (spec.maximum !== undefined && v > spec.maximum) {
        errors.push({ type: 'number_lte', field, description: `Must be less than or equal to ${spec.maximum}` });
      }
      if (spec.multipleOf !== undefined && v % spec.multipleOf !== 0) {
        errors.push({ type: 'multiple_of', field, description: `Must be a multiple of ${spec.multipleOf}` });
      }
    }
  }
  if (errors.length === 0 && model.crossCheck) errors.push(...model.crossCheck(withDefaults(model, rec)));
  return errors;
}

/** The input with schema defaults filled in (what the model "sees"). */
export function withDefaults(model: SimModel, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(model.schema)) if (spec.default !== undefined) out[name] = spec.default;
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
