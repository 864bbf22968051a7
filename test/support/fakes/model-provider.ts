/**
 * A model provider in memory, shaped like Replicate: predictions made by create() are listed, read and cancelled;
 * `next` decides how the next create answers (accepted, refused, busy, or accepted and the answer lost, as a
 * timeout after the provider took it). `webhooks` parses a delivery as the adapter does, after its signature check.
 */
import type { WebhookDelivery } from '../../../lambdas/ports/webhooks';
import {
  PredictionNotFound,
  ProviderBusy,
  ProviderRefused,
  type CreatePrediction,
  type ListedPrediction,
  type ModelProvider,
  type ModelWebhooks,
  type ProviderPrediction,
  type ProviderWebhook,
} from '../../../lambdas/ports/model-provider';

export interface StoredPrediction extends ProviderPrediction {
  request: CreatePrediction;
  createdAt: string;
}

type CreateMode = 'accept' | 'refuse' | 'busy' | 'lose-answer' | 'down';

export class FakeModelProvider implements ModelProvider {
  readonly predictions = new Map<string, StoredPrediction>();
  readonly canceled: string[] = [];
  /** How the next create() answers. */
  next: CreateMode = 'accept';
  /** How the next creates answer, one each in turn, before `next` takes over (a batch whose third create is refused). */
  turns: CreateMode[] = [];
  /** Every call throws, as a provider that cannot be reached. */
  down = false;

  constructor(private readonly now: () => Date) {}

  async create(req: CreatePrediction): Promise<ProviderPrediction> {
    const mode = this.down ? 'down' : (this.turns.shift() ?? this.next);
    if (mode === 'refuse') throw new ProviderRefused('The prompt was flagged as sensitive.');
    if (mode === 'busy') throw new ProviderBusy('429');
    if (mode === 'down') throw new Error('connect ECONNREFUSED');
    const id = `pred-${this.predictions.size + 1}`;
    const p: StoredPrediction = { id, status: 'starting', output: [], request: structuredClone(req), createdAt: this.now().toISOString() };
    this.predictions.set(id, p);
    if (mode === 'lose-answer') throw new Error('timeout after the provider accepted it');
    return { id, status: p.status, output: [] };
  }

  async get(id: string): Promise<ProviderPrediction> {
    if (this.down) throw new Error('connect ECONNREFUSED');
    const p = this.predictions.get(id);
    if (!p) throw new PredictionNotFound(id);
    const { request: _r, createdAt: _c, ...prediction } = p;
    return structuredClone(prediction);
  }

  async cancel(id: string): Promise<void> {
    if (this.down) throw new Error('connect ECONNREFUSED');
    const p = this.predictions.get(id);
    if (!p) throw new PredictionNotFound(id);
    this.canceled.push(id);
    if (!['succeeded', 'failed', 'canceled', 'aborted'].includes(p.status)) p.status = 'canceled';
  }

  async listSince(since: Date): Promise<ListedPrediction[]> {
    if (this.down) throw new Error('connect ECONNREFUSED');
    return [...this.predictions.values()]
      .filter((p) => Date.parse(p.createdAt) >= since.getTime())
      .reverse()
      .map((p) => ({ id: p.id, status: p.status, createdAt: p.createdAt, webhook: p.request.webhookUrl }));
  }

  /** The provider moves a prediction on (as its own work would). */
  update(id: string, change: Partial<ProviderPrediction>): ProviderPrediction {
    const p = this.predictions.get(id)!;
    Object.assign(p, change);
    return {
      id: p.id,
      status: p.status,
      output: [...p.output],
      ...(p.error ? { error: p.error } : {}),
      ...(p.dataRemoved ? { dataRemoved: true } : {}),
      ...(p.predictTime !== undefined ? { predictTime: p.predictTime } : {}),
    };
  }

  /** The one prediction made so far (most tests make one). */
  only(): StoredPrediction {
    expect(this.predictions.size).toBe(1);
    return [...this.predictions.values()][0]!;
  }
}

/**
 * Replicate's webhooks as the adapter parses them: a delivery is genuine when its `webhook-signature` header is
 * 'valid' (the real check is the adapter's, tested against the simulator), named by `webhook-id`, for the job its URL
 * names. `down` plays a verifier that cannot say (it throws).
 */
export function fakeModelWebhooks(state: { down?: boolean } = {}): ModelWebhooks {
  return {
    async parse(d: WebhookDelivery): Promise<ProviderWebhook | undefined> {
      if (state.down) throw new Error('secret not readable');
      if (d.headers['webhook-signature'] !== 'valid') return undefined;
      const body = JSON.parse(d.rawBody) as ProviderPrediction;
      return { eventId: d.headers['webhook-id']!, ...(d.query.job ? { jobId: d.query.job } : {}), ...(d.query.part ? { part: Number(d.query.part) } : {}), prediction: body };
    },
  };
}

/** A delivery of `prediction` for `jobId` under the delivery id `id` (the same on every retry). */
export function generationDelivery(id: string, jobId: string | undefined, prediction: ProviderPrediction, genuine = true, part?: number): WebhookDelivery {
  const query = { ...(jobId ? { job: jobId } : {}), ...(part !== undefined ? { part: String(part) } : {}) };
  return { headers: { 'webhook-id': id, 'webhook-signature': genuine ? 'valid' : 'forged' }, rawBody: JSON.stringify(prediction), query };
}
