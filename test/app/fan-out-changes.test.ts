/**
 * The push channel's fan-out over a batch of table changes: each owner's balance, job statuses and media reach that
 * owner's open tabs, in order, and nobody else's; a connection that is gone is forgotten (unless its handshake is
 * still young); an owner whose connections fail has only its own changes reported for redelivery.
 */
import { fanOutChanges } from '../../lambdas/app/fan-out-changes';
import { testClock } from '../support/fakes/clock';
import { MemoryMedia } from '../support/fakes/jobs';
import { MemoryConnections, RecordingSender } from '../support/fakes/live';
import { MemoryMediaStore } from '../support/fakes/media-store';

const account = (sub: string, credits: number) => ({ pk: `USER#${sub}`, sk: 'ACCOUNT', credits });
const job = (owner: string, id: string, status: string, extra: Record<string, unknown> = {}) => ({
  pk: `JOB#${id}`, sk: 'JOB', type: 'job', id, owner, kind: 'image', status, prompt: 'p', model: 'stability-ai/sdxl', createdAt: '2026-01-01T00:00:00.000Z', ...extra,
});

async function setup() {
  const clock = testClock('2026-01-02T00:00:00.000Z');
  const connections = new MemoryConnections();
  const sender = new RecordingSender();
  const old = '2026-01-01T00:00:00.000Z';
  for (const [connectionId, owner] of [['a1', 'alice'], ['a2', 'alice'], ['b1', 'bob']]) await connections.add({ connectionId: connectionId!, owner: owner!, connectedAt: old });
  const deps = { connections, sender, store: new MemoryMediaStore(), media: new MemoryMedia(), now: clock.now };
  return { clock, connections, sender, deps };
}

describe('fanOutChanges', () => {
  it("sends each owner's changes to that owner's tabs only, in order, with the result's URL at success", async () => {
    const { sender, deps } = await setup();
    const r = await fanOutChanges(deps, [
      { old: account('alice', 10), new: account('alice', 9) },
      { old: job('alice', 'j1', 'pending'), new: job('alice', 'j1', 'processing') },
      { old: job('alice', 'j1', 'processing'), new: job('alice', 'j1', 'succeeded', { mediaId: 'm1', mediaKey: 'users/alice/images/m1.png' }) },
      { old: account('carol', 3), new: account('carol', 2) },
    ]);
    const aliceSaw = [
      { type: 'balance', credits: 9 },
      { type: 'job', job: expect.objectContaining({ predictionId: 'j1', status: 'processing' }) },
      { type: 'job', job: expect.objectContaining({ predictionId: 'j1', status: 'succeeded', mediaId: 'm1', url: 'memory://bucket/users/alice/images/m1.png?expires=900' }) },
    ];
    expect(sender.of('a1')).toEqual(aliceSaw);
    expect(sender.of('a2')).toEqual(aliceSaw);
    expect(sender.of('b1')).toEqual([]);
    expect(r).toEqual({ messages: 3, sent: 6, gone: 0, failed: [] });
  });

  it('says nothing for changes that are no news (same balance, same status, poll bookkeeping)', async () => {
    const { sender, deps } = await setup();
    const r = await fanOutChanges(deps, [
      { old: account('alice', 5), new: { ...account('alice', 5), activeJobs: 1 } },
      { old: job('alice', 'j1', 'processing'), new: job('alice', 'j1', 'processing', { polledAt: 1 }) },
    ]);
    expect(r).toEqual({ messages: 0, sent: 0, gone: 0, failed: [] });
    expect(sender.received.size).toBe(0);
  });

  it('forgets a connection that is gone, but keeps one whose handshake is still completing', async () => {
    const { clock, connections, sender, deps } = await setup();
    await connections.add({ connectionId: 'a3', owner: 'alice', connectedAt: new Date(clock.now().getTime() - 5_000).toISOString() });
    sender.gone.add('a1');
    sender.gone.add('a3');
    const r = await fanOutChanges(deps, [{ old: account('alice', 10), new: account('alice', 8) }]);
    expect(r).toMatchObject({ sent: 1, gone: 2, failed: [] });
    expect([...connections.connections.keys()].sort()).toEqual(['a2', 'a3', 'b1']);
  });

  it("reports only the failing owner's changes for redelivery; the others are delivered", async () => {
    const { sender, deps } = await setup();
    sender.failing.add('b1');
    const r = await fanOutChanges(deps, [
      { old: account('bob', 1), new: account('bob', 2) },
      { old: account('alice', 1), new: account('alice', 2) },
      { old: job('bob', 'j2', 'starting'), new: job('bob', 'j2', 'failed', { error: 'refunded' }) },
    ]);
    expect(r.failed).toEqual([0, 2]);
    expect(sender.of('a1')).toEqual([{ type: 'balance', credits: 2 }]);
  });
});
