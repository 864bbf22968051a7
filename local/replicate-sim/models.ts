/**
 * The models the simulator knows (the registry's, with the input schemas Replicate publishes, from the fixtures),
 * and a small JSON-schema validator that answers the way Replicate does (gojsonschema-style `invalid_fields`).
 * Stricter than Replicate: a field the schema does not have is refused (Replicate drops it silently), so a
 * field we send that the real model would ignore fails every test instead of passing unnoticed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../shared/paths';
import type { MediaKind } from '../../contract/media-kinds';
import { MODELS } from '../../contract/models';
import { PIXVERSE_MODEL } from '../../contract/models/pixverse';

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

export interface SimModel {
  /** owner/name */
  id: string;
  /** The version id reported on predictions: SDXL's real id; official models report "hidden" as Replicate does. */
  version: string;
  /** True for official models (created with POST /v1/models/{owner}/{name}/predictions). */
  official: boolean;
  /** Its registry entry's kind: the simulator renders an image or a video for it. */
  kind: MediaKind;
  schema: InputSchema;
  /** The Input schema as Replicate publishes it (the fixture's), for the model and version lookups. */
  published: Record<string, unknown>;
  /** Checks that span several fields (e.g. Pixverse 1080p only at 5 s). */
  crossCheck?: (input: Record<string, unknown>) => InvalidField[];
}

interface PublishedProperty {
  type?: string;
  format?: string;
  enum?: (string | number)[];
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  default?: string | number | boolean;
}

/**
 * A model's input schema from its fixture (contract/models/schemas/), as Replicate publishes it for the version
 * we run: the simulator checks exactly what the real model's schema says, and nothing of our own.
 */
const readFixture = (file: string) =>
  JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as { schema: { required?: string[]; properties: Record<string, PublishedProperty> } };

export function schemaFromFixture(file: string): InputSchema {
  const fixture = readFixture(file);
  const required = new Set(fixture.schema.required ?? []);
  const out: Record<string, FieldSpec> = {};
  for (const [name, p] of Object.entries(fixture.schema.properties)) {
    const type = p.format === 'uri' ? 'uri' : (p.type as FieldType);
    out[name] = {
      type,
      ...(required.has(name) ? { required: true } : {}),
      ...(p.enum ? { enum: p.enum } : {}),
      ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
      ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
      ...(p.multipleOf !== undefined ? { multipleOf: p.multipleOf } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
  }
  return out;
}

const SCHEMAS_DIR = join(REPO_ROOT, 'contract/models/schemas');

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

/** Cross-field rules of a model (beyond its schema), by Replicate id. */
const CROSS_CHECKS: Readonly<Record<string, SimModel['crossCheck']>> = { [PIXVERSE_MODEL.id]: pixverseCrossCheck };

/**
 * Every model the registry runs (contract/models/): community models by their version id, official models (no
 * version in the registry) by owner/name, reporting "hidden" as Replicate does.
 */
export const SIM_MODELS: readonly SimModel[] = MODELS.flatMap((def) =>
  def.models.map((r) => ({
    id: r.id,
    version: r.version ?? 'hidden',
    official: !r.version,
    kind: def.kind,
    schema: schemaFromFixture(r.schema),
    published: readFixture(r.schema).schema,
    ...(CROSS_CHECKS[r.id] ? { crossCheck: CROSS_CHECKS[r.id] } : {}),
  })),
);

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

/** Validates `input` against `schema`; unlike Replicate, a field the schema does not have is an error. */
export function validateInput(model: SimModel, input: unknown): InvalidField[] {
  if (input === undefined || input === null) {
    return [{ type: 'required', field: '(root)', description: 'input is required' }];
  }
  if (typeof input !== 'object' || Array.isArray(input)) {
    return [{ type: 'invalid_type', field: 'input', description: `Invalid type. Expected: object, given: ${typeName(input)}` }];
  }
  const rec = input as Record<string, unknown>;
  const errors: InvalidField[] = [];
  for (const name of Object.keys(rec)) {
    if (!Object.hasOwn(model.schema, name)) {
      errors.push({ type: 'additional_property_not_allowed', field: 'input', description: `Additional property ${name} is not allowed` });
    }
  }
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
