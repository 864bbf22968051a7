import './helpers/router-env';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { LandingPage } from '../../web/src/features/marketing/landing-page';
import { landingPaymentNotice, readPaymentReturn } from '../../web/src/features/payments/payment-messages';

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

describe('LandingPage payment messages', () => {
  it('confirms a successful payment, then clears the query string', async () => {
    const router = renderAt('/?payment=success&userId=3f2a-user&credits=150');
    expect(screen.getByRole('status')).toHaveTextContent('Payment successful! 150 credits added to user 3f2a-user.');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // The message stays after the address is cleaned, and nothing was asked of the server.
    expect(screen.getByRole('status')).toHaveTextContent('Payment successful! 150 credits added to user 3f2a-user.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells the buyer a canceled payment was canceled', async () => {
    const router = renderAt('/?payment=cancel');
    expect(screen.getByRole('status')).toHaveTextContent('Payment was canceled.');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('keeps unrelated query parameters and the hash', async () => {
    const router = renderAt('/?payment=cancel&utm_source=mail#models');
    await waitFor(() => expect(router.state.location.search).toBe('?utm_source=mail'));
    expect(router.state.location.hash).toBe('#models');
  });

  it('can be dismissed', async () => {
    renderAt('/?payment=cancel');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Payment was canceled.')).not.toBeInTheDocument());
  });

  it.each(['/', '/?payment=success&credits=72', '/?payment=success&userId=u1&credits=-5', '/?payment=success&userId=<b>x</b>&credits=72', '/?payment=maybe'])(
    'shows no payment message for %s',
    (url) => {
      renderAt(url);
      expect(screen.queryByText(/Payment/)).not.toBeInTheDocument();
    },
  );

  it('has the title, the Start Creating link and the hero clip with a poster', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/generator');
    const video = document.querySelector('video')!;
    expect(video).toHaveAttribute('poster', expect.stringMatching(/\.webp$/));
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video).toHaveAttribute('playsinline');
  });
});

describe('the landing page payment message', () => {
  const noticeFrom = (search: string) => {
    const params = readPaymentReturn(search);
    return params && landingPaymentNotice(params);
  };
  it('reads success and cancel with the spec texts, and nothing malformed', () => {
    expect(noticeFrom('?payment=success&userId=abc&credits=72')).toEqual({
      variant: 'success',
      text: 'Payment successful! 72 credits added to user abc.',
    });
    expect(noticeFrom('?payment=cancel')).toEqual({ variant: 'info', text: 'Payment was canceled.' });
    expect(noticeFrom('?payment=success&userId=abc&credits=0')).toBeUndefined();
    expect(noticeFrom('?payment=success&credits=72')).toBeUndefined();
    expect(noticeFrom('')).toBeUndefined();
  });
});
