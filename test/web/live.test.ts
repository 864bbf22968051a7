/**
 * The web side of the push channel, with a scripted WebSocket and fake timers: the channel's handshake, backoff
 * and state; the job tracker following pushes (no 5 s polling while live, polling again when down, outcomes in
 * a second tab that did not start the job).
 */
import { LIVE_PROTOCOL, type LiveJob } from '../../contract/live';
import type { CheckStatusResponse } from '../../contract/schemas';
import { createJobTracker } from '../../web/src/features/generation/followed-jobs';
import { createLiveChannel, type LiveState } from '../../web/src/features/live/live-channel';
import { MemoryStorage } from './helpers/memory-storage';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  sent: string[] = [];
  closed = false;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.();
  }
  push(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.onclose?.();
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

beforeEach(() => {
  jest.useFakeTimers();
  FakeSocket.all = [];
});
afterEach(() => jest.useRealTimers());

function channel() {
  const states: LiveState[] = [];
  const c = createLiveChannel({ url: () => 'ws://app.test/live', token: async () => 'id-token', WebSocketImpl: FakeSocket as unknown as typeof WebSocket, random: () => 1 });
  c.onState((s) => states.push(s));
  return { c, states };
}

describe('live channel', () => {
  it('offers its protocol and the ID token, reports open, and hands over parsed messages', async () => {
    const { c, states } = channel();
    const got: unknown[] = [];
    c.onMessage((m) => got.push(m));
    c.start();
    await flush();
    const socket = FakeSocket.all[0]!;
    expect(socket.protocols).toEqual([LIVE_PROTOCOL, 'id-token']);
    socket.open();
    socket.push({ type: 'balance', credits: 7 });
    socket.onmessage?.({ data: 'not json' });
    expect(got).toEqual([{ type: 'balance', credits: 7 }]);
    expect(states).toEqual(['connecting', 'open']);
    c.stop();
    expect(socket.closed).toBe(true);
  });

  it('reconnects after a drop with a growing delay, and pings so an idle socket stays up', async () => {
    const { c, states } = channel();
    c.start();
    await flush();
    FakeSocket.all[0]!.drop();
    expect(states.at(-1)).toBe('down');
    await jest.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.drop();
    await jest.advanceTimersByTimeAsync(1_999);
    expect(FakeSocket.all).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.open();
    expect(states.at(-1)).toBe('open');
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    expect(FakeSocket.all[2]!.sent).toEqual(['{"action":"ping"}']);
    c.stop();
  });
});

describe('job tracker on pushes', () => {
  const job = (status: LiveJob['status'], extra: Partial<LiveJob> = {}): LiveJob => ({
    predictionId: 'job-1', kind: 'image', status, prompt: 'a fox', model: 'stability-ai/sdxl', createdAt: Date.now(), ...extra,
  });

  function tracker(storage = new MemoryStorage()) {
    const check = jest.fn(async (): Promise<CheckStatusResponse> => ({ status: 'processing', value: 9 }));
    const t = createJobTracker({ storage, check, onBalance: jest.fn(), intervalMs: 5_000 });
    t.setOwner('user-1');
    return { t, check };
  }

  it('follows a job started elsewhere and reports its pushed result, with no 5 s checks while live', async () => {
    const { t, check } = tracker();
    t.setLive(true);
    t.applyPushed(job('starting'));
    expect(t.store.getState().jobs.map((j) => j.predictionId)).toEqual(['job-1']);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(check).not.toHaveBeenCalled();
    t.applyPushed(job('succeeded', { url: 'https://media.test/a.png', mediaId: 'm-1' }));
    expect(t.takeOutcomes(() => true)).toEqual([expect.objectContaining({ status: 'succeeded', url: 'https://media.test/a.png', mediaId: 'm-1' })]);
    expect(t.store.getState().jobs).toEqual([]);
    t.reset();
  });

  it('checks every job at once when the channel goes down, then every 5 s', async () => {
    const { t, check } = tracker();
    t.setLive(true);
    t.applyPushed(job('processing'));
    t.setLive(false);
    await jest.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(check).toHaveBeenCalledTimes(2);
    t.reset();
  });

  it('a second tab whose job another tab already took off the shared list still shows the outcome once', () => {
    const storage = new MemoryStorage();
    const { t } = tracker(storage);
    t.setLive(true);
    t.applyPushed(job('processing'));
    storage.setItem('activeJobs', '[]');
    t.syncFromStorage();
    t.applyPushed(job('failed', { error: 'Image generation failed' }));
    t.applyPushed(job('failed', { error: 'Image generation failed' }));
    expect(t.takeOutcomes(() => true)).toEqual([expect.objectContaining({ status: 'failed', error: 'Image generation failed' })]);
    t.reset();
  });

  it("ignores pushes for nobody signed in", () => {
    const storage = new MemoryStorage();
    const t = createJobTracker({ storage, check: jest.fn(), onBalance: jest.fn(), intervalMs: 5_000 });
    t.applyPushed(job('starting'));
    expect(t.store.getState().jobs).toEqual([]);
  });
});
