/**
 * A batch of four whose third image fails at the provider (the Replicate simulator's `[fail-seed-N]` fails only the
 * prediction seeded N), through the embedded stack: the three images that succeeded are delivered as three media
 * items, and only the failed one's price comes back: one charge row, one refund row, the balance exact, and the job
 * ends succeeded with a message saying how many failed and were refunded.
 */
import { Messages } from '../../contract/errors';
import { IMAGE_COST } from '../../contract/models/sdxl';
import { checkInvariants } from '../support/invariants';
import { settled } from '../support/jobs';
import { userItems } from '../support/generation';
import { api, createUser } from '../support/users';

jest.setTimeout(120_000);

describe('a batch with one failed part', () => {
  it('delivers the three images that succeeded and refunds the one that failed, once', async () => {
    const user = await createUser();
    const before = ((await (await api(user, '/api/me')).json()) as { credits: number }).credits;
    expect(before).toBeGreaterThanOrEqual(4 * IMAGE_COST);
    const res = await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'four harbour boats [fail-seed-702]', count: 4, seed: 700 }) });
    expect(res.status).toBe(200);
    const { predictionId: jobId, credits: afterCharge } = (await res.json()) as { predictionId: string; credits: number };
    const perImage = IMAGE_COST;
    const charged = 4 * perImage;
    expect({ before, afterCharge }).toEqual({ before, afterCharge: before - charged });

    const job = await settled(jobId);
    const note = Messages.batchPartlyFailed(1, 4, perImage);
    expect(job).toMatchObject({ status: 'succeeded', error: note });
    const status = (await (await api(user, `/api/check-status/${jobId}`)).json()) as { status: string; error?: string; imageUrl?: string; value: number };
    expect(status).toMatchObject({ status: 'succeeded', error: note, imageUrl: expect.any(String), value: before - charged + perImage });

    // The three images, each with its own part's seed; the failed seed's is not among them.
    const media = (await (await api(user, '/api/media')).json()) as { items: Array<{ options: { seed?: number }; url: string }> };
    expect(media.items.map((m) => m.options.seed).sort()).toEqual([700, 701, 703]);
    for (const m of media.items) expect((await fetch(m.url)).status).toBe(200);

    // One charge row, one refund row for the missing image.
    const ledger = (await userItems(user.sub, 'LEDGER#')).map((l) => [l.reason, l.delta, l.ref]);
    expect(ledger.filter(([reason]) => reason !== 'welcome')).toEqual([
      ['image', -charged, jobId],
      ['refund', perImage, jobId],
    ]);
    expect(((await (await api(user, '/api/me')).json()) as { credits: number }).credits).toBe(before - charged + perImage);
    expect((await checkInvariants({ owners: [user.sub] })).problems).toEqual([]);
  });
});
