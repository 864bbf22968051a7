import './helpers/router-env';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { LandingPage } from '../../web/src/features/marketing/landing-page';
import { setConfigForTesting } from '../../web/src/lib/config';

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/', Component: LandingPage }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

const fetchMock = jest.fn();
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});

const ORDER = 'ORDER0000000000001';
const answer = (body: Record<string, unknown>) => fetchMock.mockImplementation(async (url: string) => {
  const order = new URL(String(url), 'http://x').searchParams.get('order');
  const found = order === ORDER;
  return { ok: found, status: found ? 200 : 404, text: async () => JSON.stringify(found ? body : { error: 'There is no such payment.', code: 'NOT_FOUND' }) };
});

describe('LandingPage payment messages', () => {
  beforeEach(() => setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_test', userPoolClientId: 'client', apiBaseUrl: 'https://app.example.test' }));

  it('confirms a payment the server credited, naming the buyer by masked email, then clears the query string', async () => {
    answer({ outcome: 'success', credits: 150, buyer: 'a***@e***.com' });
    const router = renderAt(`/?payment=success&order=${ORDER}`);
    expect(await screen.findByRole('status')).toHaveTextContent('Payment successful! 150 credits added to user a***@e***.com.');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('status')).toHaveTextContent('Payment successful! 150 credits added to user a***@e***.com.');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe(`https://app.example.test/api/payment-outcome?order=${ORDER}`);
  });

  it('tells the buyer a canceled payment was canceled', async () => {
    answer({ outcome: 'cancel' });
    const router = renderAt(`/?payment=cancel&order=${ORDER}`);
    expect(await screen.findByRole('status')).toHaveTextContent('Payment was canceled.');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('keeps unrelated query parameters and the hash', async () => {
    answer({ outcome: 'cancel' });
    const router = renderAt(`/?payment=cancel&order=${ORDER}&utm_source=mail#models`);
    await waitFor(() => expect(router.state.location.search).toBe('?utm_source=mail'));
    expect(router.state.location.hash).toBe('#models');
  });

  it('can be dismissed', async () => {
    answer({ outcome: 'cancel' });
    renderAt(`/?payment=cancel&order=${ORDER}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Payment was canceled.')).not.toBeInTheDocument());
  });

  it.each([
    '/',
    '/?payment=success&userId=u1&credits=72',
    '/?payment=success&credits=72',
    '/?payment=success&order=UNKNOWNORDER00000',
    '/?payment=success&order=<b>x</b>',
    '/?payment=maybe',
  ])('shows no payment message for %s', async (url) => {
    answer({ outcome: 'success', credits: 72, buyer: 'a***@e***.com' });
    renderAt(url);
    await act(async () => undefined);
    await act(async () => undefined);
    expect(screen.queryByText(/Payment/)).not.toBeInTheDocument();
  });
});

describe('LandingPage', () => {
  it('has the title, the Start Creating link and the hero clip with a poster', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/generator');
    const video = document.querySelector('video')!;
    expect(video).toHaveAttribute('poster', expect.stringMatching(/\.webp$/));
    expect(video).toHaveAttribute('preload', 'none');
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video).toHaveAttribute('playsinline');
  });
});
