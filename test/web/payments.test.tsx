/**
 * Buying credits in the web app: the messages after PayPal's return (generators, My Account, landing page), the
 * outcome mapping, that the client only re-reads the balance, the Buy buttons and My Payments.
 * The API is a fetch stand-in answering like our server; the UI is the real components in a memory router.
 */
import './helpers/router-env';
import { PaymentAlert } from '../../web/src/features/marketing/payment-alert';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { Messages } from '../../contract/errors';
import { maskEmail } from '../../contract/mask-email';
import { PAYMENT_RETURN_PATHS, PaymentReturnParams, WITHDRAWAL_CONSENT_TEXT, type LedgerReason, type ListPaymentsResponse, type OrderStatus, type PaymentOrderView } from '../../contract/payments';
import { resetSessionForTesting } from '../../web/src/features/auth/session-store';
import { CreditBalance } from '../../web/src/features/credits/credit-balance';
import { resetCredits, setCredits } from '../../web/src/features/credits';
import { BuyCreditsTab } from '../../web/src/features/account/tabs/buy-credits';
import { MyPaymentsTab } from '../../web/src/features/account/tabs/my-payments';
import { AccountPage } from '../../web/src/features/account/account-page';
import {
  BuyCreditsToggle,
  CreditPacks,
  PaymentReturnNotice,
  landingPaymentNotice,
  paymentNotice,
  paymentReturnPathFor,
  readPaymentReturn,
  withoutPaymentQuery,
} from '../../web/src/features/payments';
import { PENDING_RECHECKS, PENDING_RECHECK_MS } from '../../web/src/features/payments/payment-return-notice';
import { setRetryDelaysForTesting } from '../../web/src/lib/api-client';
import { setConfigForTesting } from '../../web/src/lib/config';
import { FakeApi } from './helpers/fake-api';

const ME = 'sub-me-0001';

// ---- a fetch stand-in for our API ----------------------------------------------------------------------------------

let api: FakeApi;

/** Every request the API got, as the assertions below read them: the path with its query string, the JSON body. */
const calls = () =>
  api.requests.map((r) => {
    const url = new URL(r.url);
    return { method: r.method, path: url.pathname + url.search, body: r.body };
  });

function installApi() {
  api = new FakeApi();
  global.fetch = api.fetch as unknown as typeof fetch;
}

/** GET /api/me answers this balance, as the server holds it. */
function serverBalance(credits: number) {
  api.on('GET', '/api/me', { status: 200, body: { sub: ME, email: 'me@example.com', firstName: 'Grace', lastName: 'Hopper', credits } });
}

const meCalls = () => calls().filter((c) => c.path === '/api/me').length;

beforeEach(() => {
  // A create answered 5xx is retried (same Idempotency-Key) before its error shows: at once here.
  setRetryDelaysForTesting([0, 0, 0, 0]);
  setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_test', userPoolClientId: 'client', apiBaseUrl: 'https://app.example.test' });
  installApi();
  resetSessionForTesting({ status: 'signedIn', user: { sub: ME, email: 'me@example.com', givenName: 'Grace', familyName: 'Hopper' } });
  resetCredits();
  window.history.replaceState(null, '', '/');
});

function renderAt(url: string, element: React.ReactNode, path = '*') {
  const routeList: RouteObject[] = [{ path, element }];
  const router = createMemoryRouter(routeList, { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

// ---- the outcome mapping ------------------------------------------------------------------------------------------------

const ORDER = 'ORDER0000000000001';
const MY_MASK = maskEmail('me@example.com');

/** GET /api/payment-outcome answers this for ORDER (the server's word about the order); other orders are 404. */
function serverOutcome(body: Record<string, unknown>) {
  api.on('GET', '/api/payment-outcome', (req) =>
    req.query.get('order') === ORDER ? { status: 200, body } : { status: 404, body: { error: Messages.unknownOrder, code: 'NOT_FOUND' } },
  );
}
const outcomeCalls = () => calls().filter((c) => c.path.startsWith('/api/payment-outcome'));

describe('what the app says after PayPal', () => {
  it('generators and My Account: the server\u2019s success for me, for someone else, cancel, pending, error', () => {
    expect(paymentNotice({ outcome: 'success', credits: 72, buyer: MY_MASK }, 'me@example.com')).toEqual({ variant: 'success', text: 'Payment successful! Added 72 credits.' });
    expect(paymentNotice({ outcome: 'success', credits: 999, buyer: maskEmail('someone@else.org') }, 'me@example.com')).toEqual({
      variant: 'error',
      text: 'Payment successful, but user ID mismatch. Credits not added.',
    });
    expect(paymentNotice({ outcome: 'success', credits: 72 }, 'me@example.com').text).toBe(Messages.paymentUserMismatch);
    expect(paymentNotice({ outcome: 'success', credits: 72, buyer: MY_MASK }, undefined).text).toBe(Messages.paymentUserMismatch);
    expect(paymentNotice({ outcome: 'cancel' }, 'me@example.com')).toEqual({ variant: 'info', text: 'Payment canceled.' });
    expect(paymentNotice({ outcome: 'pending' }, 'me@example.com')).toEqual({ variant: 'info', text: Messages.paymentPending });
    expect(paymentNotice({ outcome: 'error' }, 'me@example.com')).toEqual({ variant: 'error', text: Messages.paymentFailed });
    expect(paymentNotice({ outcome: 'success', buyer: MY_MASK }, 'me@example.com')).toEqual({ variant: 'error', text: Messages.paymentFailed });
  });

  it('landing page: names the buyer by the server\u2019s masked email, and says the payment was canceled', () => {
    expect(landingPaymentNotice({ outcome: 'success', credits: 150, buyer: 'a***@e***.com' })).toEqual({
      variant: 'success',
      text: 'Payment successful! 150 credits added to user a***@e***.com.',
    });
    expect(landingPaymentNotice({ outcome: 'cancel' })).toEqual({ variant: 'info', text: 'Payment was canceled.' });
    expect(landingPaymentNotice({ outcome: 'pending' })).toEqual({ variant: 'info', text: Messages.paymentPending });
    expect(landingPaymentNotice({ outcome: 'error' })).toEqual({ variant: 'error', text: Messages.paymentFailed });
    expect(landingPaymentNotice({ outcome: 'success', credits: 150 })).toBeUndefined();
  });

  it('masks an email as the server does', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@e***.com');
    expect(maskEmail('x@localhost')).toBe('x***@l***');
    expect(maskEmail('nonsense')).toBe('***');
  });

  it.each([
    [`?payment=success&order=${ORDER}`, { payment: 'success', order: ORDER }],
    [`?order=${ORDER}&payment=success&tab=buy-credits`, { payment: 'success', order: ORDER }],
    ['?payment=success&userId=u1&credits=72', { payment: 'success' }],
    ['?payment=cancel', { payment: 'cancel' }],
    ['?payment=cancel&order=', { payment: 'cancel' }],
    ['?payment=pending', { payment: 'pending' }],
    ['?payment=error', { payment: 'error' }],
    ['?payment=success&order=lower-case', undefined],
    ['?payment=success&order=%3Cb%3E', undefined],
    ['?payment=refunded', undefined],
    ['?payment=', undefined],
    [`?order=${ORDER}`, undefined],
    ['', undefined],
  ])('reads %p as the contract does', (search, expected) => {
    expect(readPaymentReturn(search)).toEqual(expected);
    // The hand-written reader and the contract's schema agree (empty values count as absent).
    const raw = Object.fromEntries([...new URLSearchParams(search)].filter(([k, v]) => v !== '' && ['payment', 'order'].includes(k)));
    const contract = PaymentReturnParams.safeParse(raw);
    expect(contract.success ? contract.data : undefined).toEqual(expected);
  });

  it('clears only the payment keys from the query string', () => {
    expect(withoutPaymentQuery('?payment=success&userId=u1&credits=72')).toBe('');
    expect(withoutPaymentQuery(`?payment=success&order=${ORDER}`)).toBe('');
    expect(withoutPaymentQuery('?tab=my-payments&payment=cancel')).toBe('?tab=my-payments');
  });

  it('sends the current page as returnPath only when the server allows it', () => {
    for (const path of PAYMENT_RETURN_PATHS) expect(paymentReturnPathFor(path)).toBe(path);
    expect(paymentReturnPathFor('/generator/')).toBe('/generator');
    expect(paymentReturnPathFor('/video-generator')).toBeUndefined();
    expect(paymentReturnPathFor('/video-generator/sora')).toBeUndefined();
    expect(paymentReturnPathFor('/login')).toBeUndefined();
    expect(paymentReturnPathFor('//evil.example')).toBeUndefined();
  });
});

// ---- PaymentReturnNotice (generators, My Account) -------------------------------------------------------------------

describe('PaymentReturnNotice', () => {
  const page = (
    <>
      <CreditBalance />
      <PaymentReturnNotice />
    </>
  );

  it('success: asks the server about the order, then the message, the balance as the server has it, and a clean URL', async () => {
    serverBalance(82);
    serverOutcome({ outcome: 'success', credits: 72, buyer: MY_MASK });
    const router = renderAt(`/generator?payment=success&order=${ORDER}`, page);
    expect(await screen.findByText('Payment successful! Added 72 credits.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('82'));
    expect(router.state.location.pathname).toBe('/generator');
    expect(router.state.location.search).toBe('');
    expect(meCalls()).toBe(1);
    expect(outcomeCalls().map((c) => c.path)).toEqual([`/api/payment-outcome?order=${ORDER}`]);
  });

  it.each([`/generator?payment=success&userId=${ME}&credits=999`, '/generator?payment=success&order=FORGEDORDER000000'])(
    'numbers in a URL show nothing: %s has no message',
    async (url) => {
      setCredits(10);
      serverBalance(10);
      serverOutcome({ outcome: 'success', credits: 72, buyer: MY_MASK });
      const router = renderAt(url, page);
      await waitFor(() => expect(router.state.location.search).toBe(''));
      await act(async () => undefined);
      expect(screen.queryByText(/Payment/)).toBeNull();
      expect(screen.getByTestId('credit-balance')).toHaveTextContent('10');
    },
  );

  it("another user's order: the mismatch message and the balance unchanged", async () => {
    setCredits(10);
    serverBalance(10);
    serverOutcome({ outcome: 'success', credits: 999, buyer: maskEmail('other@example.org') });
    const router = renderAt(`/video-generator/wan?payment=success&order=${ORDER}`, page);
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment successful, but user ID mismatch. Credits not added.');
    await waitFor(() => expect(meCalls()).toBe(1));
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('10');
    expect(router.state.location.search).toBe('');
  });

  it.each([
    ['cancel', 'Payment canceled.', 'status'],
    ['error', Messages.paymentFailed, 'alert'],
  ] as const)('%s: its message, the balance re-read', async (payment, text, role) => {
    serverBalance(10);
    serverOutcome({ outcome: payment });
    const router = renderAt(`/video-generator/pixverse?payment=${payment}&order=${ORDER}`, page);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByText(text).closest(`[role="${role}"]`)).not.toBeNull();
    await waitFor(() => expect(meCalls()).toBe(1));
    expect(router.state.location.search).toBe('');
  });

  it('pending: says PayPal is confirming, asks the server again, and shows the success and the balance when the capture lands', async () => {
    jest.useFakeTimers();
    try {
      let balance = 10;
      api.on('GET', '/api/me', () => ({ status: 200, body: { credits: balance } }));
      serverOutcome({ outcome: 'pending' });
      renderAt(`/admin?payment=pending&order=${ORDER}`, page);
      expect(await screen.findByText(Messages.paymentPending)).toBeInTheDocument();
      await waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('10'));
      expect(outcomeCalls()).toHaveLength(1);
      await act(async () => void (await jest.advanceTimersByTimeAsync(PENDING_RECHECK_MS)));
      expect(outcomeCalls()).toHaveLength(2);
      expect(screen.getByText(Messages.paymentPending)).toBeInTheDocument();
      // The reconciler (or a webhook) captured the order.
      balance = 82;
      serverOutcome({ outcome: 'success', credits: 72, buyer: MY_MASK });
      await act(async () => void (await jest.advanceTimersByTimeAsync(PENDING_RECHECK_MS)));
      expect(await screen.findByText('Payment successful! Added 72 credits.')).toBeInTheDocument();
      expect(screen.queryByText(Messages.paymentPending)).toBeNull();
      await waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('82'));
      await act(async () => void (await jest.advanceTimersByTimeAsync(PENDING_RECHECK_MS * PENDING_RECHECKS)));
      expect(outcomeCalls()).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });

  it('pending: gives up after a few minutes when nothing changes', async () => {
    jest.useFakeTimers();
    try {
      serverBalance(10);
      serverOutcome({ outcome: 'pending' });
      renderAt(`/generator?payment=pending&order=${ORDER}`, page);
      expect(await screen.findByText(Messages.paymentPending)).toBeInTheDocument();
      await act(async () => void (await jest.advanceTimersByTimeAsync(PENDING_RECHECK_MS * (PENDING_RECHECKS + 5))));
      expect(outcomeCalls()).toHaveLength(1 + PENDING_RECHECKS);
      expect(screen.getByText(Messages.paymentPending)).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('an outcome we never send: no message, the payment keys cleared, other keys kept', async () => {
    serverBalance(10);
    const router = renderAt('/admin?tab=buy-credits&payment=refunded&credits=5', page);
    await waitFor(() => expect(router.state.location.search).toBe('?tab=buy-credits'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Payment/)).toBeNull();
    expect(meCalls()).toBe(0);
  });

  it('shows nothing and leaves the URL alone without a payment in the query', async () => {
    const router = renderAt('/generator?tab=x', page);
    await act(async () => undefined);
    expect(screen.queryByText(/Payment/)).toBeNull();
    expect(router.state.location.search).toBe('?tab=x');
  });

  it('can be dismissed', async () => {
    serverBalance(10);
    serverOutcome({ outcome: 'cancel' });
    renderAt(`/generator?payment=cancel&order=${ORDER}`, page);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Payment canceled.')).toBeNull();
  });
});

describe('My Account shows the generator-style messages', () => {
  it.each([
    [{ outcome: 'success', credits: 72, buyer: MY_MASK }, 'Payment successful! Added 72 credits.'],
    [{ outcome: 'cancel' }, 'Payment canceled.'],
    [{ outcome: 'success', credits: 999, buyer: 'o***@e***.org' }, 'Payment successful, but user ID mismatch. Credits not added.'],
    [{ outcome: 'pending' }, Messages.paymentPending],
    [{ outcome: 'error' }, Messages.paymentFailed],
  ])('/admin after %p', async (answer, text) => {
    serverBalance(82);
    serverOutcome(answer);
    api.on('GET', '/api/media', { status: 200, body: { items: [] } });
    const router = renderAt(`/admin?payment=success&order=${ORDER}`, <AccountPage />, '/admin');
    expect(await screen.findByText(text)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('82'));
  });
});

describe('the landing page payment alert', () => {
  it.each([
    [{ outcome: 'success', credits: 72, buyer: 'a***@e***.com' }, 'Payment successful! 72 credits added to user a***@e***.com.'],
    [{ outcome: 'cancel' }, 'Payment was canceled.'],
  ])('%p', async (answer, text) => {
    serverOutcome(answer);
    const router = renderAt(`/?payment=success&order=${ORDER}`, <PaymentAlert />);
    expect(await screen.findByText(text)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // Public page: no session; one question to the server about the order.
    expect(calls().map((c) => c.path)).toEqual([`/api/payment-outcome?order=${ORDER}`]);
  });

  it('a URL\u2019s own numbers show nothing', async () => {
    const router = renderAt(`/?payment=success&userId=${ME}&credits=999`, <PaymentAlert />);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await act(async () => undefined);
    expect(screen.queryByText(/Payment/)).toBeNull();
    expect(calls()).toEqual([]);
  });
});

// ---- buying -------------------------------------------------------------------------------------------------------------------

describe('Buy buttons', () => {
  const paypalUrl = 'http://localhost/admin#paypal-approval';

  it('create the order for the pack with this page as returnPath, then go to PayPal', async () => {
    window.history.replaceState(null, '', '/admin');
    api.on('POST', '/api/create-paypal-payment', { status: 200, body: { paymentUrl: paypalUrl, orderId: 'ORDER1' } });
    render(<CreditPacks layout="cards" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }));
    await user.click(screen.getByRole('button', { name: 'Buy 150 credits for $13.99' }));
    await waitFor(() => expect(window.location.hash).toBe('#paypal-approval'));
    expect(calls()).toEqual([{ method: 'POST', path: '/api/create-paypal-payment', body: { withdrawalConsent: true, amount: '13.99', credits: 150, returnPath: '/admin' } }]);
  });

  it('ask for the withdrawal consent first: Buy with the box unticked says so and sends nothing', async () => {
    window.history.replaceState(null, '', '/admin');
    api.on('POST', '/api/create-paypal-payment', { status: 200, body: { paymentUrl: paypalUrl, orderId: 'ORDER1' } });
    render(<CreditPacks layout="cards" />);
    const user = userEvent.setup();
    const box = screen.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT });
    expect(box).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Buy 72 credits for $6.99' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.withdrawalConsentRequired);
    expect(box).toHaveAccessibleDescription(Messages.withdrawalConsentRequired);
    expect(calls()).toEqual([]);
    await user.click(box);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Buy 72 credits for $6.99' }));
    await waitFor(() => expect(calls()).toHaveLength(1));
  });

  it('the generator toggle reveals the three packs and sends its own page', async () => {
    window.history.replaceState(null, '', '/video-generator/wan');
    api.on('POST', '/api/create-paypal-payment', { status: 200, body: { paymentUrl: 'http://localhost/video-generator/wan#pp', orderId: 'ORDER2' } });
    const user = userEvent.setup();
    render(<BuyCreditsToggle />);
    expect(screen.queryByRole('list', { name: 'Credit packs' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Buy Credits' }));
    const packs = within(screen.getByRole('list', { name: 'Credit packs' })).getAllByRole('listitem');
    expect(packs.map((p) => p.textContent)).toEqual([
      '72 credits$6.99 · about 9 basic videosBuy',
      '150 credits$13.99 · about 18 basic videosBuy',
      '300 credits$25.99 · about 37 basic videosBuy',
    ]);
    await user.click(screen.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }));
    await user.click(screen.getByRole('button', { name: 'Buy 72 credits for $6.99' }));
    await waitFor(() => expect(calls()).toHaveLength(1));
    expect(calls()[0]!.body).toEqual({ withdrawalConsent: true, amount: '6.99', credits: 72, returnPath: '/video-generator/wan' });
  });

  it('send no returnPath from a page the server would refuse', async () => {
    window.history.replaceState(null, '', '/somewhere/else');
    api.on('POST', '/api/create-paypal-payment', { status: 200, body: { paymentUrl: 'http://localhost/somewhere/else#pp', orderId: 'ORDER3' } });
    render(<CreditPacks />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }));
    await user.click(screen.getByRole('button', { name: 'Buy 300 credits for $25.99' }));
    await waitFor(() => expect(calls()).toHaveLength(1));
    expect(calls()[0]!.body).toEqual({ withdrawalConsent: true, amount: '25.99', credits: 300 });
  });

  it.each([
    [{ status: 400, body: { error: Messages.invalidPack, code: 'INVALID_INPUT' } }, `Error initiating payment: ${Messages.invalidPack}`],
    [{ status: 502, body: { error: Messages.paymentUnavailable, code: 'PROVIDER_ERROR' } }, `Error initiating payment: ${Messages.paymentUnavailable}`],
    [{ status: 500 }, 'Error initiating payment: HTTP error: 500'],
  ])('show the reason when the order cannot be created (%p), and can be pressed again', async (reply, text) => {
    api.on('POST', '/api/create-paypal-payment', reply);
    const user = userEvent.setup();
    render(<CreditPacks layout="cards" />);
    await user.click(screen.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }));
    await user.click(screen.getByRole('button', { name: 'Buy 72 credits for $6.99' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByRole('button', { name: 'Buy 72 credits for $6.99' })).toBeEnabled();
    expect(window.location.hash).toBe('');
  });
});

describe('My Account > Buy Credits', () => {
  it('shows the three packs with their equivalent basic videos, each with a Buy button', () => {
    render(<BuyCreditsTab />);
    const packs = within(screen.getByRole('list', { name: 'Credit packs' })).getAllByRole('listitem');
    expect(packs).toHaveLength(3);
    for (const [pack, credits, price, videos] of [
      // A basic video is a 5 s Wan clip (8 credits): 72 / 8, 150 / 8, 300 / 8, rounded down.
      [packs[0]!, 72, '$6.99', 9],
      [packs[1]!, 150, '$13.99', 18],
      [packs[2]!, 300, '$25.99', 37],
    ] as const) {
      expect(pack).toHaveTextContent(`${credits} credits`);
      expect(pack).toHaveTextContent(price);
      expect(pack).toHaveTextContent(`About ${videos} basic videos`);
      expect(within(pack).getByRole('button', { name: `Buy ${credits} credits for ${price}` })).toBeEnabled();
    }
  });
});

// ---- My Payments ------------------------------------------------------------------------------------------------------------

describe('My Account > My Payments', () => {
  const order = (id: string, status: OrderStatus, credits = 72, amount = '6.99', extra: Partial<PaymentOrderView> = {}): PaymentOrderView => ({
    id,
    createdAt: '2026-03-04T10:20:00.000Z',
    packId: `pack-${credits}`,
    credits,
    amount,
    currency: 'USD',
    status,
    statusAt: '2026-03-05T11:00:00.000Z',
    ...(status === 'captured' ? { capturedAt: '2026-03-04T10:21:00.000Z', captureId: `CAP${id}` } : {}),
    ...extra,
  });
  const entry = (id: string, reason: LedgerReason, delta: number, balance: number) => ({ id, createdAt: '2026-03-04T10:21:00.000Z', reason, delta, balance, ref: 'r' });
  const rowsOf = (name: string) =>
    within(screen.getByRole('table', { name }))
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));

  it('lists orders and the credit ledger in words, and loads more until the end', async () => {
    const pages: Record<string, ListPaymentsResponse> = {
      first: {
        orders: [order('O2', 'created', 150, '13.99'), order('O1', 'captured')],
        ledger: [entry('L4', 'refund', 8, 81), entry('L3', 'video', -8, 73), entry('L2', 'purchase', 72, 81)],
        nextCursor: 'page-2',
      },
      'page-2': { orders: [], ledger: [entry('L1', 'image', -1, 9), entry('L0', 'welcome', 10, 10)] },
    };
    api.on('GET', '/api/payments', (req) => ({ status: 200, body: pages[req.query.get('cursor') ?? 'first'] }));
    const user = userEvent.setup();
    renderAt('/admin?tab=my-payments', <MyPaymentsTab />);
    expect(screen.getByText('Loading...')).toBeInTheDocument();

    await screen.findByRole('table', { name: 'Orders' });
    expect(rowsOf('Orders').map((r) => r.slice(1, 3))).toEqual([
      ['150 credits', '$13.99'],
      ['72 credits', '$6.99'],
    ]);
    expect(rowsOf('Orders').map((r) => r[3])).toEqual([expect.stringMatching(/^Awaiting payment.*2026/), expect.stringMatching(/^Paid.*2026/)]);
    expect(rowsOf('Orders').map((r) => r[4])).toEqual(['-', expect.stringContaining('CAPO1')]);
    expect(rowsOf('Orders')[0]![0]).toMatch(/2026/);
    expect(rowsOf('Credit history').map((r) => r.slice(1))).toEqual([
      ['Refund', '+8', '81'],
      ['Video', '\u22128', '73'],
      ['Purchase', '+72', '81'],
    ]);
    expect(calls().map((c) => c.path)).toEqual(['/api/payments?limit=20']);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rowsOf('Credit history')).toHaveLength(5));
    expect(rowsOf('Credit history').slice(3).map((r) => r.slice(1))).toEqual([
      ['Image', '\u22121', '9'],
      ['Welcome bonus', '+10', '10'],
    ]);
    expect(rowsOf('Orders')).toHaveLength(2);
    expect(calls().map((c) => c.path)).toEqual(['/api/payments?limit=20', '/api/payments?limit=20&cursor=page-2']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('words every order state with its date, an open dispute, and the receipt with what a refund took back', async () => {
    const states: Array<[OrderStatus, string]> = [
      ['pending', 'Pending'],
      ['failed', 'Failed'],
      ['canceled', 'Canceled'],
      ['expired', 'Expired'],
      ['partially_refunded', 'Partly refunded'],
      ['refunded', 'Refunded'],
      ['reversed', 'Reversed'],
    ];
    const orders = [
      ...states.map(([status], i) => order(`S${i}`, status)),
      order('R1', 'partially_refunded', 72, '6.99', { captureId: 'CAPR1', capturedAt: '2026-03-04T10:21:00.000Z', refundedAmount: '2.00', creditsTakenBack: 21, dispute: 'open' }),
    ];
    api.on('GET', '/api/payments', { status: 200, body: { orders, ledger: [entry('L9', 'purchase-refund', -21, 61), entry('L8', 'chargeback', -72, 0)] } });
    renderAt('/admin?tab=my-payments', <MyPaymentsTab />);
    await screen.findByRole('table', { name: 'Orders' });
    const rows = rowsOf('Orders');
    states.forEach(([, label], i) => expect(rows[i]![3]).toMatch(new RegExp(`^${label}.*2026`)));
    expect(rows.at(-1)![3]).toMatch(/^Partly refundedDisputed/);
    expect(rows.at(-1)![4]).toEqual(expect.stringContaining('CAPR1'));
    expect(rows.at(-1)![4]).toEqual(expect.stringContaining('$2.00 (\u221221 credits)'));
    expect(rowsOf('Credit history').map((r) => r.slice(1, 3))).toEqual([
      ['Refund', '\u221221'],
      ['Chargeback', '\u221272'],
    ]);
  });

  it('says honestly when there is nothing yet, with a way to buy', async () => {
    api.on('GET', '/api/payments', { status: 200, body: { orders: [], ledger: [] } });
    renderAt('/admin?tab=my-payments', <MyPaymentsTab />);
    expect(await screen.findByText('No payments yet.')).toBeInTheDocument();
    expect(screen.getByText('No credit changes yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/admin?tab=buy-credits');
    expect(screen.queryByText('Payment integration coming soon.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("shows 'Error fetching data: {message}' and tries again", async () => {
    let fail = true;
    api.on('GET', '/api/payments', () =>
      fail ? { status: 503, body: { error: 'Service unavailable', code: 'UNAVAILABLE' } } : { status: 200, body: { orders: [order('O1', 'captured')], ledger: [] } },
    );
    const user = userEvent.setup();
    renderAt('/admin?tab=my-payments', <MyPaymentsTab />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error fetching data: Service unavailable');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Orders' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps what it has when loading more fails, and lets the user retry', async () => {
    let fail = true;
    api.on('GET', '/api/payments', (req) => {
      if (!req.query.has('cursor')) return { status: 200, body: { orders: [order('O1', 'captured')], ledger: [entry('L1', 'purchase', 72, 82)], nextCursor: 'c2' } };
      return fail ? { status: 500 } : { status: 200, body: { orders: [], ledger: [entry('L0', 'welcome', 10, 10)] } };
    });
    const user = userEvent.setup();
    renderAt('/admin?tab=my-payments', <MyPaymentsTab />);
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error fetching data: HTTP error: 500');
    expect(rowsOf('Credit history')).toHaveLength(1);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rowsOf('Credit history')).toHaveLength(2));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
