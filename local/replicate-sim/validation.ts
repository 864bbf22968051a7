/**
 * Checking what callers send, with Replicate's error shapes (problem+json: title, detail, status; 422 with
 * invalid_fields for bad input): the JSON body, the model a request names, and a create request as a whole.
 */
import { modelByVersion, officialModel, SIM_MODELS, validateInput, withDefaults, type InvalidField, type SimModel } from './models';
import { SIM_MARKERS, WEBHOOK_EVENTS, type SimMarker, type WebhookEvent } from './types';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.detail ?? body.title ?? status));
  }
}

export function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, { title, detail, status, ...extra }, headers);
}

function validationError(fields: InvalidField[]): HttpError {
  const detail = fields.map((f) => `- ${f.field}: ${f.description}\n`).join('');
  return problem(422, 'Input validation failed', detail, { invalid_fields: fields });
}

export const notFound = () => problem(404, 'Not found', 'The requested resource could not be found.');

/** A request body that must be a JSON object (an empty body counts as {}). */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    throw problem(400, 'Invalid JSON', 'The request body is not valid JSON.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw problem(400, 'Invalid request', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** The model POST /v1/predictions names: "<version id>", "owner/name:<version id>" or "owner/name" (official models). */
export function modelOfVersion(v: unknown): SimModel {
  if (typeof v !== 'string' || !v) {
    throw validationError([{ type: 'required', field: '(root)', description: 'version is required' }]);
  }
  const [name, ver] = v.includes(':') ? v.split(':', 2) : v.includes('/') ? [v, undefined] : [undefined, v];
  const model = ver ? modelByVersion(ver) : officialModel(name!);
  if (!model || (name && ver && model.id !== name)) {
    throw problem(422, 'Invalid version or not permitted', 'The specified version does not exist (or perhaps you don\'t have permission to use it?)');
  }
  return model;
}

/** The official model of POST /v1/models/{owner}/{name}/predictions (`id` is owner/name). */
export function officialModelOf(id: string): SimModel {
  const model = officialModel(id);
  if (!model) {
    const known = SIM_MODELS.some((x) => x.id === id);
    throw problem(404, 'Not found', known ? `${id} is not an official model: create its predictions with a version` : 'The requested resource could not be found.');
  }
  return model;
}

/** A create request once checked: the input as sent and with the model's defaults, where to send webhooks, the markers. */
export interface CreateRequest {
  raw: Record<string, unknown>;
  input: Record<string, unknown>;
  webhook?: string;
  events: Set<WebhookEvent>;
  markers: Set<SimMarker>;
}

/** Checks a create body against the model: its input, webhook URL and events filter; a `[reject]` prompt is refused. */
export function parseCreate(model: SimModel, body: Record<string, unknown>): CreateRequest {
  const fields = validateInput(model, body.input);
  if (fields.length) throw validationError(fields);
  const raw = body.input as Record<string, unknown>;
  let webhook: string | undefined;
  if (body.webhook !== undefined && body.webhook !== null && body.webhook !== '') {
    let ok = typeof body.webhook === 'string';
    if (ok) {
      try {
        ok = ['http:', 'https:'].includes(new URL(body.webhook as string).protocol);
      } catch {
        ok = false;
      }
    }
    if (!ok) throw validationError([{ type: 'format', field: 'webhook', description: "Does not match format 'uri'" }]);
    webhook = body.webhook as string;
  }
  let events = new Set<WebhookEvent>(WEBHOOK_EVENTS);
  if (body.webhook_events_filter !== undefined && body.webhook_events_filter !== null) {
    const f = body.webhook_events_filter;
    if (!Array.isArray(f) || f.some((e) => !WEBHOOK_EVENTS.includes(e as WebhookEvent))) {
      throw validationError([
        {
          type: 'enum',
          field: 'webhook_events_filter',
          description: `webhook_events_filter must be an array of: ${WEBHOOK_EVENTS.map((e) => `"${e}"`).join(', ')}`,
        },
      ]);
    }
    events = new Set(f as WebhookEvent[]);
  }
  const prompt = String(raw.prompt ?? '').toLowerCase();
  const markers = new Set((Object.keys(SIM_MARKERS) as SimMarker[]).filter((k) => prompt.includes(SIM_MARKERS[k])));
  // The from-image markers act only on a prediction given a start image (so a clip's second segment can fail alone).
  if (raw.image !== undefined && raw.image !== null) {
    if (markers.has('failFromImage')) markers.add('fail');
    if (markers.has('stuckFromImage')) markers.add('stuck');
  }
  // `[fail-seed-N]` fails only the prediction seeded N: one image of a batch (one prediction per seed) fails alone.
  const failSeed = /\[fail-seed-(\d+)\]/.exec(prompt);
  if (failSeed && raw.seed === Number(failSeed[1])) markers.add('fail');
  if (markers.has('reject')) {
    throw validationError([
      { type: 'rejected', field: 'input.prompt', description: 'The prompt was flagged by the content filter (simulated rejection)' },
    ]);
  }
  return { raw, input: withDefaults(model, raw), ...(webhook ? { webhook } : {}), events, markers };
}
