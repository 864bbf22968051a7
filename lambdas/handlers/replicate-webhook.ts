import { routeById } from '../../contract/routes';
import { Unauthorized } from '../app/errors';
import { handleProviderCallback } from '../app/generation';
import { verifyWebhookSignature } from '../app/webhook-signature';
import { requireSecret } from '../adapters/secrets';
import { toPrediction, type ReplicatePrediction } from '../adapters/replicate-provider';
import { generationDeps, replicateInbox } from './generation-deps';
import { publicRoute } from './http';

const route = routeById('replicateWebhook');

/** Replicate's callbacks: verified, and idempotent by webhook-id (a redelivery changes nothing). */
export const handler = publicRoute(route, async (req) => {
  const secret = await requireSecret('REPLICATE_WEBHOOK_SECRET');
  const headers = { id: req.headers['webhook-id'], timestamp: req.headers['webhook-timestamp'], signature: req.headers['webhook-signature'] };
  if (!verifyWebhookSignature(secret, headers, req.rawBody)) throw new Unauthorized('Invalid webhook signature.');
  const eventId = headers.id!; // a verified signature has a non-empty id

  if (await replicateInbox.seen(eventId)) return { body: { ok: true, duplicate: true } };

  const body = req.body as unknown as Partial<ReplicatePrediction> | undefined;
  const jobId = req.query.job;
  if (jobId && body?.id && body.status) {
    await handleProviderCallback(generationDeps, jobId, toPrediction({ id: body.id, status: body.status, output: body.output, error: body.error }));
  }
  await replicateInbox.record(eventId, jobId ? { jobId } : {});
  return { body: { ok: true } };
});
