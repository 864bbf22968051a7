/**
 * Starting an image: the account made on first use, the price charged with its ledger row in the same change as the
 * job, SDXL asked with our webhook naming the job, and every way the start can fail, each leaving the credits exact
 * (refused before a charge, or refunded once after one).
 */
import { MAX_ACTIVE_JOBS, SIGNUP_CREDITS } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { startImageGeneration } from '../support/fakes/generation';
import { InvalidInput, NotEnoughCredits, ProviderError, RateLimited } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, png, WEBHOOK_URL } from '../support/fakes/generation';

const ledgerOf = (ctx: ReturnType<typeof generationSetup>) => ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta]);

describe('startImageGeneration', () => {
  it("makes a first caller's account with the welcome credits, charges 1 and asks SDXL with a webhook naming the job", async () => {
    const ctx = generationSetup();
    const started = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a lighthouse at dusk' });
    expect(started).toEqual({ predictionId: expect.any(String), credits: SIGNUP_CREDITS - 1 });
    expect(ledgerOf(ctx)).toEqual([['welcome', SIGNUP_CREDITS], ['image', -1]]);
    const p = ctx.provider.only();
    expect(p.request).toMatchObject({ model: 'stability-ai/sdxl', webhookUrl: `${WEBHOOK_URL}?job=${started.predictionId}`, input: expect.objectContaining({ prompt: 'a lighthouse at dusk' }) });
    expect(await ctx.jobs.get(started.predictionId)).toMatchObject({ owner: CALLER.sub, kind: 'image', cost: 1, status: 'starting', providerId: p.id, countsActive: true });
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(1);
    expectBooksBalanced(ctx.credits);
  });

  it('charges one credit per image asked for, in one change', async () => {
    const ctx = generationSetup({ credits: 5 });
    expect(await startImageGeneration(ctx.deps, CALLER, { prompt: 'four cats', count: 4 })).toMatchObject({ credits: 1 });
    expect(ledgerOf(ctx)).toEqual([['purchase', 5], ['image', -4]]);
  });

  it('refuses a price above the balance with the spec message, charging nothing and asking no model', async () => {
    const ctx = generationSetup({ credits: 3 });
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'four cats', count: 4 }));
    expect(err).toBeInstanceOf(NotEnoughCredits);
    expect(err.message).toBe(Messages.notEnoughCredits(4));
    expect(ledgerOf(ctx)).toEqual([['purchase', 3]]);
    expect(ctx.provider.predictions.size).toBe(0);
    expect(ctx.jobs.jobs.size).toBe(0);
  });

  it('refuses an option the model does not have before anything is made, the account included', async () => {
    const ctx = generationSetup();
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'x', aspectRatio: '2:1' }));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(err.message).toContain('1:1');
    expect(ctx.credits.accounts.size).toBe(0);
    expect(ctx.provider.predictions.size).toBe(0);
  });

  it("gives the credit back once when the model refuses the prompt, and says the model's reason", async () => {
    const ctx = generationSetup({ credits: 2 });
    ctx.provider.next = 'refuse';
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'something flagged' }));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(err.message).toBe('The prompt was flagged as sensitive.');
    expect(ledgerOf(ctx)).toEqual([['purchase', 2], ['image', -1], ['refund', 1]]);
    expect([...ctx.jobs.jobs.values()]).toEqual([expect.objectContaining({ status: 'failed', refunded: true })]);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
    expectBooksBalanced(ctx.credits);
  });

  it('refunds when the provider is down and says so with the refund', async () => {
    const ctx = generationSetup({ credits: 2 });
    ctx.provider.next = 'down';
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'a boat' }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.jobRefunded(Messages.generationUnavailable, 1));
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
    expect(ledgerOf(ctx)).toEqual([['purchase', 2], ['image', -1], ['refund', 1]]);
  });

  it('queues the charged job when the provider is busy, instead of failing the start', async () => {
    const ctx = generationSetup({ credits: 2 });
    ctx.provider.next = 'busy';
    await startImageGeneration(ctx.deps, CALLER, { prompt: 'a boat' });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(1);
    expect(ledgerOf(ctx)).toEqual([['purchase', 2], ['image', -1]]);
    const [job] = [...ctx.jobs.jobs.values()];
    expect(job).toEqual(expect.objectContaining({ status: 'pending', queued: expect.objectContaining({ input: expect.objectContaining({ prompt: 'a boat' }) }) }));
    expect(job!.providerId).toBeUndefined();
    expectBooksBalanced(ctx.credits);
  });

  it('cancels the prediction a lost create call made, then refunds: nothing runs unpaid and nothing is charged', async () => {
    const ctx = generationSetup({ credits: 2 });
    ctx.provider.next = 'lose-answer';
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'a boat' }));
    expect(err).toBeInstanceOf(ProviderError);
    const made = ctx.provider.only();
    expect(ctx.provider.canceled).toEqual([made.id]);
    expect(made.status).toBe('canceled');
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
  });

  it('stops at the queue limit and at the daily cap without charging', async () => {
    const ctx = generationSetup({ credits: 20 });
    for (let i = 0; i < MAX_ACTIVE_JOBS; i++) await startImageGeneration(ctx.deps, CALLER, { prompt: `job ${i}` });
    const full = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'one more' }));
    expect(full).toBeInstanceOf(RateLimited);
    expect(full.message).toBe(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
    expect(await ctx.credits.balance(CALLER.sub)).toBe(20 - MAX_ACTIVE_JOBS);

    const capped = generationSetup({ credits: 20 });
    const deps = { ...capped.deps, dailyGenerationCap: 1 };
    await startImageGeneration(deps, CALLER, { prompt: 'first' });
    // Half a minute before the UTC day ends: the answer says the cap lifts then (its body and Retry-After header).
    capped.clock.set('2026-01-02T23:59:30.000Z');
    const err = await caught(startImageGeneration(deps, CALLER, { prompt: 'second' }));
    expect(err).toBeInstanceOf(RateLimited);
    expect(err.message).toBe(Messages.dailyGenerationCap(1));
    expect(err.details).toEqual({ retryAfterSeconds: 30 });
    expect(await capped.credits.balance(CALLER.sub)).toBe(19);
  });

  it("takes the caller's own uploaded PNG as the start image, by a short-lived URL, and refuses anyone else's", async () => {
    const ctx = generationSetup({ credits: 2 });
    const own = `users/${CALLER.sub}/images/1767322800000.png`;
    await ctx.store.put(own, await png(64, 48), 'image/png');
    await startImageGeneration(ctx.deps, CALLER, { prompt: 'from my sketch', image: own });
    expect(ctx.provider.only().request.input.image).toBe(`memory://bucket/${own}?expires=900`);

    const theirs = 'users/someone-else/images/1767322800000.png';
    await ctx.store.put(theirs, await png(64, 48), 'image/png');
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'from their sketch', image: theirs }));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(1);
  });

  it('refuses a charge while the account is being deleted', async () => {
    const ctx = generationSetup({ credits: 2 });
    ctx.credits.accounts.get(CALLER.sub)!.deleting = true;
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'late' }));
    expect(err.message).toBe(Messages.accountDeleted);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
  });
});
