import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { routeById } from '../../contract/routes';
import { Unauthorized } from '../app/errors';
import { handleProviderCallback } from '../app/generation';
import { verifyWebhookSignature } from '../app/webhook-signature';
import { dynamo } from '../adapters/aws-clients';
import { requireSecret } from '../adapters/secrets';
import type { ProviderPrediction } from '../ports/model-provider';
import { config } from '../config';
import { generationDeps } from './generation-deps';
import { publicRoute } from './http';

const route = routeById('replicateWebhook');
const table = config().TABLE_NAME;
const SEEN_DAYS = 7;

/** Replicate's callbacks: verified, and idempotent by webhook-id (a redelivery changes nothing). */
export const handler = publicRoute(route, async (req) => {
  const secret = await requireSecret('REPLICATE_WEBHOOK_SECRET');
  const headers = { id: req.headers['webhook-id'], timestamp: req.headers['webhook-timestamp'], signature: req.headers['webhook-signature'] };
  if (!verifyWebhookSignature(secret, headers, req.rawBody)) throw new Unauthorized('Invalid webhook signature.');

  const seenKey = { pk: `WEBHOOK#${headers.id}`, sk: 'WEBHOOK' };
  const seen = await dynamo().send(new GetCommand({ TableName: table, Key: seenKey, ConsistentRead: true }));
  if (seen.Item) return { body: { ok: true, duplicate: true } };

  const body = req.body as unknown as { id?: string; status?: ProviderPrediction['status']; output?: unknown; error?: unknown };
  const jobId = req.query.job;
  if (jobId && body?.id && body.status) {
    const output = Array.isArray(body.output) ? body.output.map(String) : body.output ? [String(body.output)] : [];
    await handleProviderCallback(generationDeps, jobId, { id: body.id, status: body.status, output, error: body.error ? String(body.error) : undefined });
  }
  await dynamo().send(
    new PutCommand({ TableName: table, Item: { ...seenKey, ttl: Math.floor(Date.now() / 1000) + SEEN_DAYS * 86400 } }),
  );
  return { body: { ok: true } };
});
