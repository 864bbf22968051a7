/**
 * The signed-in app's push handlers (app/live-handlers.ts) on the app's real channel, with a scripted WebSocket: each
 * message reaches the feature that owns it, as a signed-in user would see it (the balance shown, a job followed
 * and forgotten once it ends, a deleted result gone from the gallery).
 */
import { IMAGE_MODEL } from '../../contract/catalog';
import type { LiveJob, LiveMessage } from '../../contract/live';
import '../../web/src/app/live-handlers';
import { useSessionStore } from '../../web/src/features/auth/session-store';
import { readCredits, resetCredits } from '../../web/src/features/credits';
import { jobTracker } from '../../web/src/features/generation/jobs';
import { ACTIVE_JOBS_KEY, parseJobs } from '../../web/src/features/generation/active-jobs';
import { liveChannel } from '../../web/src/features/live';
import { setTokenProvider } from '../../web/src/lib/api-client';
import { queryClient } from '../../web/src/lib/query-client';

class FakeSocket {
  static last: FakeSocket | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  send() {}
  close() {}
  push(message: LiveMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const job = (status: LiveJob['status'], extra: Partial<LiveJob> = {}): LiveJob => ({
  predictionId: 'pred-1',
  kind: 'image',
  status,
  prompt: 'a lighthouse',
  model: IMAGE_MODEL.id,
  createdAt: Date.now(),
  ...extra,
});

let socket: FakeSocket;

beforeEach(async () => {
  localStorage.clear();
  queryClient.clear();
  resetCredits();
  jobTracker.reset();
  Object.assign(globalThis, { WebSocket: FakeSocket });
  setTokenProvider(async () => 'id-token');
  useSessionStore.setState({ status: 'signedIn', user: { sub: 'user-1', email: 'a@example.com' } as never });
  liveChannel.start();
  await flush();
  socket = FakeSocket.last!;
  socket.onopen?.();
});

afterEach(() => {
  liveChannel.stop();
  useSessionStore.setState({ status: 'signedOut', user: undefined });
});

describe('the push handlers of the signed-in app', () => {
  it('a pushed balance replaces the shown one', () => {
    socket.push({ type: 'balance', credits: 42 });
    expect(readCredits().credits).toBe(42);
  });

  it('a job pushed while running is followed (stored for every tab), and forgotten when its end is pushed', () => {
    socket.push({ type: 'job', job: job('processing') });
    expect(parseJobs(localStorage.getItem(ACTIVE_JOBS_KEY)).map((j) => j.predictionId)).toEqual(['pred-1']);
    expect(jobTracker.statusOf('pred-1')).toBe('processing');

    socket.push({ type: 'job', job: job('succeeded', { url: 'https://media.example/pred-1.png', mediaId: 'm-1' }) });
    expect(localStorage.getItem(ACTIVE_JOBS_KEY)).toBeNull();
    expect(jobTracker.store.getState().outcomes).toEqual([expect.objectContaining({ status: 'succeeded', url: 'https://media.example/pred-1.png' })]);
  });

  it('a result deleted in another tab leaves every cached gallery', () => {
    const page = (ids: string[]) => ({ pages: [{ items: ids.map((id) => ({ id, createdAt: '2026-01-01T00:00:00Z' })), nextCursor: undefined }], pageParams: [undefined] });
    queryClient.setQueryData(['media', 'all'], page(['m-1', 'm-2']));
    queryClient.setQueryData(['media', 'image'], page(['m-1']));
    socket.push({ type: 'media', change: 'removed', mediaId: 'm-1', kind: 'image' });
    const ids = (key: string[]) => (queryClient.getQueryData(key) as ReturnType<typeof page>).pages[0]!.items.map((i) => i.id);
    expect(ids(['media', 'all'])).toEqual(['m-2']);
    expect(ids(['media', 'image'])).toEqual([]);
  });
});
