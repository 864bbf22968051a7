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
import { useCredits } from '../../../web/src/features/credits';
import { jobTracker } from '../../../web/src/features/generation/jobs';
import { setTokenProvider } from '../../../web/src/lib/api-client';
import { setConfigForTesting } from '../../../web/src/lib/config';

export const TEST_USER = { sub: 'user-1', email: 'grace@example.com', givenName: 'Grace', familyName: 'Hopper' };

export interface FakeRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
}

type Handler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

interface Route {
  method: string;
  match: (path: string) => boolean;
  handler: Handler;
}

export class FakeApi {
  readonly requests: FakeRequest[] = [];
  private routes: Route[] = [];

  /** Registers (or replaces, newest first) the answer for a method and a path (a prefix when it ends with '*'). */
  on(method: string, path: string, handler: Handler | FakeAnswer): this {
    const match = path.endsWith('*') ? (p: string) => p.startsWith(path.slice(0, -1)) : (p: string) => p === path;
    this.routes.unshift({ method, match, handler: typeof handler === 'function' ? handler : () => handler });
    return this;
  }

  calls(method: string, path: string): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path));
  }

  readonly fetch = async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test');
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const req: FakeRequest = { method, url: url.toString(), path: url.pathname, query: url.searchParams, body };
    this.requests.push(req);
    const route = this.routes.find((r) => r.method === method && r.match(url.pathname));
    const answer: FakeAnswer = route ? await route.handler(req) : { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } };
    const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, text: async () => text, json: async () => JSON.parse(text) };
  };
}

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
  // reset() also forgets a balance request still pending from an earlier test.
  useCredits.getState().reset();
  useCredits.setState({ credits, error: undefined });
  let n = 0;
  URL.createObjectURL = jest.fn(() => `blob:preview-${++n}`);
  URL.revokeObjectURL = jest.fn();
  return api;
}

/** Unmounts what was rendered, then forgets the jobs (in that order, so no update lands outside act). */
export function tearDownGenerator(): void {
  cleanup();
  jobTracker.reset();
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
