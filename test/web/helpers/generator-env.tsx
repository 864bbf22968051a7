/**
 * What the generator pages need in jsdom: a signed-in session, a known balance, a scripted API behind the real
 * api-client (fetch stand-in, answering like the contract's routes), and stand-ins for browser APIs jsdom lacks
 * (object URLs). Image decoding (canvas) is replaced by the test file with jest.mock of image-file.
 */
import './router-env';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { MediaItemView } from '../../../contract/schemas';
import { useSessionStore } from '../../../web/src/features/auth/session-store';
import { resetCredits, setCredits } from '../../../web/src/features/credits';
import { queryClient } from '../../../web/src/lib/query-client';
import { jobTracker } from '../../../web/src/features/generation/jobs';
import { setTokenProvider } from '../../../web/src/lib/api-client';
import { setConfigForTesting } from '../../../web/src/lib/config';
import { FakeApi } from './fake-api';

export { FakeApi, type FakeAnswer, type FakeRequest } from './fake-api';

export const TEST_USER = { sub: 'user-1', email: 'grace@example.com', givenName: 'Grace', familyName: 'Hopper' };

export function mediaItem(overrides: Partial<MediaItemView> & Pick<MediaItemView, 'id'>): MediaItemView {
  const type = overrides.type ?? 'image';
  return {
    type,
    prompt: `prompt ${overrides.id}`,
    model: type === 'image' ? 'stability-ai/sdxl' : 'wavespeedai/wan-2.1-t2v-480p',
    options: type === 'image' ? {} : { duration: 5 },
    createdAt: '2025-06-07T10:00:00.000Z',
    url: `https://media.test/${overrides.id}.${type === 'image' ? 'png' : 'mp4'}`,
    downloadUrl: `https://media.test/${overrides.id}.${type === 'image' ? 'png' : 'mp4'}?download`,
    ...overrides,
  };
}

/** A signed-in user with `credits` ('unknown': not loaded yet), a fresh job tracker and an API with an empty gallery. */
export function setUpGenerator(options: { credits?: number | 'unknown' } = {}): FakeApi {
  const credits = options.credits === 'unknown' ? undefined : (options.credits ?? 10);
  const api = new FakeApi();
  api.on('GET', '/api/media', { status: 200, body: { items: [] } });
  api.on('GET', '/api/me', { status: 200, body: { credits: credits ?? 10 } });
  global.fetch = api.fetch as unknown as typeof fetch;
  setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_test', userPoolClientId: 'client', apiBaseUrl: '' });
  setTokenProvider(async () => 'token');
  localStorage.clear();
  jobTracker.reset();
  useSessionStore.setState({ status: 'signedIn', user: TEST_USER, notice: undefined });
  jobTracker.setOwner(TEST_USER.sub);
  // Forgets every cached answer (a balance request still pending from an earlier test too).
  queryClient.clear();
  resetCredits();
  if (credits !== undefined) setCredits(credits);
  let n = 0;
  URL.createObjectURL = jest.fn(() => `blob:preview-${++n}`);
  URL.revokeObjectURL = jest.fn();
  return api;
}

/** Unmounts what was rendered, then forgets the jobs (in that order, so no update lands outside act). */
export function tearDownGenerator(): void {
  cleanup();
  jobTracker.reset();
  queryClient.clear();
  localStorage.clear();
}

export function renderAt(path: string, element: ReactNode) {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  return render(<RouterProvider router={router} />);
}

/** Renders like renderAt, then waits until the page's media list has loaded (or failed to). */
export async function renderLoaded(path: string, element: ReactNode) {
  const view = renderAt(path, element);
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading...' })).not.toBeInTheDocument());
  return view;
}

/** A file as the picker or a drop hands it over. */
export function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
