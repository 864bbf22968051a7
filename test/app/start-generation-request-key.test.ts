/**
 * One job per request: a generation call carries an Idempotency-Key, and a retry of a call whose charge was made but
 * whose answer was lost (a timeout after the commit, which the API answers 503) answers that call's job instead of
 * charging a second one. The job then ends like any other whose starter died: the reconciler settles it.
 */
import { DEFAULT_LIMITS, reconcileJobs } from '../../lambdas/app/reconcile-jobs';
import { imageOrder, startGeneration } from '../../lambdas/app/start-generation';
import { isDependencyUnreachable } from '../../lambdas/domain/unreachable';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup } from '../support/fakes/generation';

/** What a call threw that is not one of the use case's own errors (here: the store's timeout). */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
}

const order = imageOrder({ prompt: 'a lighthouse at dusk' });
const ledgerOf = (ctx: ReturnType<typeof generationSetup>) => ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta]);

describe('startGeneration with a request key', () => {
  it("answers a retry with the job its lost call charged, charging once; the reconciler ends that job", async () => {
    const ctx = generationSetup({ credits: 5 });
    ctx.jobs.loseNextChargeAnswer = true;
    const lost = await thrown(startGeneration(ctx.deps, CALLER, order, 'click-1'));
    // What the API answers 503 "try again" for: the client retries with the same key.
    expect(isDependencyUnreachable(lost)).toBe(true);
    expect(ctx.jobs.jobs.size).toBe(1);
    const [jobId] = [...ctx.jobs.jobs.keys()];

    expect(await startGeneration(ctx.deps, CALLER, order, 'click-1')).toEqual({ predictionId: jobId, credits: 4 });
    expect(await startGeneration(ctx.deps, CALLER, order, 'click-1')).toEqual({ predictionId: jobId, credits: 4 });
    expect(ledgerOf(ctx)).toEqual([['purchase', 5], ['image', -1]]);
    expect(ctx.jobs.jobs.size).toBe(1);
    expect(ctx.provider.predictions.size).toBe(0);

    // Its call died before asking the provider: the reconciler finds no prediction for it and refunds it, once.
    ctx.clock.advance(DEFAULT_LIMITS.unconfirmedAfterMs + 1);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { refunded: 1 } });
    expect(ledgerOf(ctx)).toEqual([['purchase', 5], ['image', -1], ['refund', 1]]);
    expect(await startGeneration(ctx.deps, CALLER, order, 'click-1')).toEqual({ predictionId: jobId, credits: 5 });
    expectBooksBalanced(ctx.credits);
  });

  it('answers the job even when its charge spent the credits a second charge would need', async () => {
    const ctx = generationSetup({ credits: 1 });
    ctx.jobs.loseNextChargeAnswer = true;
    expect(isDependencyUnreachable(await thrown(startGeneration(ctx.deps, CALLER, order, 'last-credit')))).toBe(true);
    const [jobId] = [...ctx.jobs.jobs.keys()];
    expect(await startGeneration(ctx.deps, CALLER, order, 'last-credit')).toEqual({ predictionId: jobId, credits: 0 });
    expect(ledgerOf(ctx)).toEqual([['purchase', 1], ['image', -1]]);
  });

  it('starts a job per key, and per call without one', async () => {
    const ctx = generationSetup({ credits: 5 });
    const a = await startGeneration(ctx.deps, CALLER, order, 'click-a');
    const b = await startGeneration(ctx.deps, CALLER, order, 'click-b');
    const c = await startGeneration(ctx.deps, CALLER, order);
    const d = await startGeneration(ctx.deps, CALLER, order);
    expect(new Set([a.predictionId, b.predictionId, c.predictionId, d.predictionId]).size).toBe(4);
    expect(d.credits).toBe(1);
    expect(ctx.provider.predictions.size).toBe(4);
    expectBooksBalanced(ctx.credits);
  });
});
