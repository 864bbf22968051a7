import Replicate from 'replicate';
import { ProviderRefused, type ModelProvider, type ProviderPrediction } from '../ports/model-provider';

/** A prediction as Replicate sends it, from the API and in webhook bodies. */
export interface ReplicatePrediction {
  id: string;
  status: ProviderPrediction['status'];
  output?: unknown;
  error?: unknown;
}

/** Replicate's output (a URL or an array of them) and error, in the port's shape. */
export function toPrediction(p: ReplicatePrediction): ProviderPrediction {
  const output = Array.isArray(p.output) ? p.output.map(String) : p.output ? [String(p.output)] : [];
  return { id: p.id, status: p.status, output, error: p.error ? String(p.error) : undefined };
}

/** Replicate's answer to a refused request, reduced to what a user can act on. */
function refusal(err: unknown): ProviderRefused | undefined {
  const e = err as { response?: { status?: number }; message?: string };
  const status = e.response?.status;
  if (status !== 422 && status !== 400) return undefined;
  const detail = /"detail":\s*"((?:[^"\\]|\\.)*)"/.exec(e.message ?? '')?.[1];
  return new ProviderRefused(detail ? JSON.parse(`"${detail}"`) : 'The model refused this request.');
}

/** The official `replicate` client, pointed at REPLICATE_BASE_URL (the simulator locally). */
export function replicateProvider(opts: { token: string; baseUrl?: string; fetchImpl?: typeof fetch }): ModelProvider {
  const client = new Replicate({ auth: opts.token, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), ...(opts.fetchImpl ? { fetch: opts.fetchImpl } : {}) });
  return {
    async create(req) {
      try {
        const p = await client.predictions.create({
          ...(req.version ? { version: req.version } : { model: req.model }),
          input: req.input,
          webhook: req.webhookUrl,
          webhook_events_filter: ['start', 'completed'],
        } as Parameters<typeof client.predictions.create>[0]);
        return toPrediction(p as ReplicatePrediction);
      } catch (err) {
        throw refusal(err) ?? err;
      }
    },
    async get(id) {
      return toPrediction((await client.predictions.get(id)) as ReplicatePrediction);
    },
    async cancel(id) {
      await client.predictions.cancel(id);
    },
  };
}
