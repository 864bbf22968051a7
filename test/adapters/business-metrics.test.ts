import { meteredJobs, meteredOrders, meteredWebhooks } from '../../lambdas/adapters/metered';
import type { Job, JobStore } from '../../lambdas/ports/jobs';
import { BusinessMetric, type Metrics } from '../../lambdas/ports/metrics';
import type { Order, OrderStore } from '../../lambdas/ports/payments';

/** An in-memory Metrics port that remembers every count. */
function recorder(): Metrics & { seen: Array<[string, number, Record<string, string> | undefined]> } {
  const seen: Array<[string, number, Record<string, string> | undefined]> = [];
  return { seen, count: (m, v = 1, d) => void seen.push([m, v, d as Record<string, string> | undefined]) };
}

const job: Job = { id: 'j1', owner: 'u1', kind: 'video', model: 'wan', prompt: 'p', options: {}, cost: 8, status: 'pending', createdAt: '2026-01-01T00:00:00.000Z' };

/** A job store whose writes happen once: the second of each answers "already done". */
function onceJobs(): JobStore {
  const done = new Set<string>();
  const once = (k: string) => (done.has(k) ? false : (done.add(k), true));
  const store: Pick<JobStore, 'createCharged' | 'succeed' | 'failAndRefund'> = {
    createCharged: async (j, _b, cap) => (cap === 0 ? { ok: false, dailyCapReached: true } : once(`c${j.id}`) ? { ok: true, balance: 2 } : { ok: false, balance: 2 }),
    succeed: async (j) => once(`end${j.id}`),
    failAndRefund: async (j) => once(`end${j.id}`),
  };
  return store as JobStore;
}

describe('business metrics', () => {
  it('counts a job started, failed and refunded once per model, however often the end is applied', async () => {
    const m = recorder();
    const jobs = meteredJobs(onceJobs(), m);
    await jobs.createCharged(job);
    await jobs.failAndRefund(job, 'failed', 'x');
    await jobs.failAndRefund(job, 'failed', 'x');
    await jobs.succeed(job, {} as never);
    expect(m.seen).toEqual([
      [BusinessMetric.JobStarted, 1, { model: 'wan' }],
      [BusinessMetric.JobFailed, 1, { model: 'wan' }],
      [BusinessMetric.JobRefunded, 8, { model: 'wan' }],
    ]);
  });

  it('counts a success, the daily cap, and the reconciler refunds as its own metric', async () => {
    const m = recorder();
    const jobs = meteredJobs(onceJobs(), m, { refundsAs: BusinessMetric.ReconcilerRefund });
    await jobs.createCharged({ ...job, id: 'capped' }, undefined, 0);
    await jobs.failAndRefund({ ...job, id: 'r' }, 'failed', 'x');
    await jobs.succeed({ ...job, id: 's' }, {} as never);
    expect(m.seen.map(([name]) => name)).toEqual([
      BusinessMetric.DailyCapReached,
      BusinessMetric.JobFailed,
      BusinessMetric.JobRefunded,
      BusinessMetric.ReconcilerRefund,
      BusinessMetric.JobSucceeded,
      // What the success brought in (its credits at the cheapest pack's price), beside the provider's cost per model.
      BusinessMetric.RevenueCents,
    ]);
  });

  it('counts credits sold and clawed back (the difference a take-back makes), only when written', async () => {
    const m = recorder();
    let credited = true;
    const orders = meteredOrders(
      {
        captureAndCredit: async () => (credited ? { credited: true, balance: 82 } : { credited: false }),
        takeBack: async () => ({ applied: true, balance: 10 }),
      } as unknown as OrderStore,
      m,
    );
    const order = { credits: 72, creditsTakenBack: 20 } as Order;
    await orders.captureAndCredit(order, { captureId: 'c', capturedAt: 'now' });
    credited = false;
    await orders.captureAndCredit(order, { captureId: 'c', capturedAt: 'now' });
    await orders.takeBack(order, { refundId: 'r', reason: 'purchase-refund', refundedCents: 699, creditsTakenBack: 72, status: 'refunded', at: 'now' });
    expect(m.seen).toEqual([
      [BusinessMetric.CreditsSold, 72, undefined],
      [BusinessMetric.CreditsClawedBack, 52, undefined],
    ]);
  });

  it('counts each webhook whose signature is not genuine, per provider', async () => {
    const m = recorder();
    const replicate = meteredWebhooks<{ eventId: string }>({ parse: async (d) => (d.rawBody === 'ok' ? { eventId: 'e' } : undefined) }, 'replicate', m);
    const paypal = meteredWebhooks<{ eventId: string }>({ parse: async () => undefined }, 'paypal', m);
    await replicate.parse({ rawBody: 'ok' } as never);
    await replicate.parse({ rawBody: 'forged' } as never);
    await paypal.parse({ rawBody: 'forged' } as never);
    expect(m.seen).toEqual([
      [BusinessMetric.WebhookSignatureFailure, 1, { provider: 'replicate' }],
      [BusinessMetric.WebhookSignatureFailure, 1, { provider: 'paypal' }],
    ]);
  });
});
