/**
 * Ports that count what they did (ports/metrics.ts). Decorators rather than calls in each use case: a job ends or
 * refunds through several use cases (a webhook, a poll, the reconciler, the stream's copy, a refused create), and
 * the store's answer (true: written now; false: already done) is the one place that knows a change happened once.
 */
import type { WebhookVerifier } from '../ports/webhooks';
import { BusinessMetric, type Metrics } from '../ports/metrics';
import type { Job, JobStore } from '../ports/jobs';
import { RefundNotLanded } from '../domain/errors';
import { logger } from '../logger';
import type { OrderStore } from '../ports/payments';
import { revenueCents } from '../domain/provider-cost';

export interface JobMeterOptions {
  /** Also count each refund as this (the reconciler's deps count ReconcilerRefund). */
  refundsAs?: BusinessMetric;
}

export function meteredJobs(jobs: JobStore, metrics: Metrics, o: JobMeterOptions = {}): JobStore {
  /** A refund that did not land is counted (one series, alarmed) and thrown on: the caller reports the failure. */
  const notLanded = async <T>(job: Job, write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (err) {
      if (err instanceof RefundNotLanded) {
        metrics.count(BusinessMetric.RefundNotLanded, 1);
        logger.error('A refund did not land', { jobId: job.id, owner: job.owner, cost: job.cost, why: err.why });
      }
      throw err;
    }
  };
  return {
    ...jobs,
    async createCharged(job, expectedBalance, dailyCap, activeCap) {
      const r = await jobs.createCharged(job, expectedBalance, dailyCap, activeCap);
      if (r.ok) metrics.count(BusinessMetric.JobStarted, 1, { model: job.model });
      else if ('dailyCapReached' in r) metrics.count(BusinessMetric.DailyCapReached, 1, { model: job.model });
      return r;
    },
    async succeed(job, media, partRefund) {
      // A batch's failed parts come back with its success (partRefund): passed on, or they would never be refunded.
      const done = await notLanded(job, () => jobs.succeed(job, media, partRefund));
      if (done) {
        metrics.count(BusinessMetric.JobSucceeded, 1, { model: job.model });
        metrics.count(BusinessMetric.RevenueCents, revenueCents(job.cost - (partRefund?.credits ?? 0)), { model: job.model });
        if (partRefund) metrics.count(BusinessMetric.JobRefunded, partRefund.credits, { model: job.model });
      }
      return done;
    },
    async notePredictionCost(job, providerId, seconds, cents) {
      const noted = await jobs.notePredictionCost(job, providerId, seconds, cents);
      if (noted && cents > 0) metrics.count(BusinessMetric.ProviderCostCents, cents, { model: job.model });
      return noted;
    },
    async failAndRefund(job, status, error) {
      const done = await notLanded(job, () => jobs.failAndRefund(job, status, error));
      if (done) {
        metrics.count(BusinessMetric.JobFailed, 1, { model: job.model });
        metrics.count(BusinessMetric.JobRefunded, job.cost, { model: job.model });
        // One series (no model dimension), so one alarm watches it.
        if (o.refundsAs) metrics.count(o.refundsAs, 1);
      }
      return done;
    },
    async cancel(job, refund, error) {
      const done = await notLanded(job, () => jobs.cancel(job, refund, error));
      if (done && refund) metrics.count(BusinessMetric.JobRefunded, job.cost, { model: job.model });
      return done;
    },
  };
}

export function meteredOrders(orders: OrderStore, metrics: Metrics): OrderStore {
  return {
    ...orders,
    async captureAndCredit(order, capture) {
      const r = await orders.captureAndCredit(order, capture);
      if (r.credited) metrics.count(BusinessMetric.CreditsSold, order.credits);
      return r;
    },
    async takeBack(order, t) {
      const r = await orders.takeBack(order, t);
      if (r.applied) metrics.count(BusinessMetric.CreditsClawedBack, t.creditsTakenBack - (order.creditsTakenBack ?? 0));
      return r;
    },
  };
}

/** A provider's webhooks, counting the deliveries whose signature is not the provider's. */
export function meteredWebhooks<E extends { eventId: string }>(webhooks: WebhookVerifier<E>, provider: 'replicate' | 'paypal', metrics: Metrics): WebhookVerifier<E> {
  return {
    async parse(delivery) {
      const parsed = await webhooks.parse(delivery);
      if (!parsed) metrics.count(BusinessMetric.WebhookSignatureFailure, 1, { provider });
      return parsed;
    },
  };
}
