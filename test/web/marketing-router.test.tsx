/**
 * The marketing entry's mini router (web/src/marketing/marketing-router.tsx) with the real marketing
 * layout and pages, on jsdom's History API. The hand-over to the app is `onLeave` here; the Playwright
 * spec test/e2e/marketing-entry.spec.ts follows it into the real app in Chromium.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { marketingRoutes } from '../../web/src/app/router';
import { MarketingRouter, type Departure } from '../../web/src/marketing/marketing-router';
import { MARKETING_PAGES, marketingPage } from '../../web/src/marketing/marketing-routes';
import { adoptEntry } from '../../web/src/marketing/browser-history';
import { setConfigForTesting } from '../../web/src/lib/config';

const scrollTo = jest.fn();
beforeAll(() => {
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = jest.fn();
});

beforeEach(() => {
  scrollTo.mockClear();
  sessionStorage.clear();
});

async function openAt(url: string) {
  window.history.replaceState(null, '', url);
  adoptEntry();
  const page = (await marketingPage(new URL(url, window.location.href).pathname)!()).default as ComponentType;
  const onLeave = jest.fn<void, [Departure]>();
  const onLeaveIntent = jest.fn();
  render(<MarketingRouter initialPage={page} onLeave={onLeave} onLeaveIntent={onLeaveIntent} />);
  return { onLeave, onLeaveIntent, user: userEvent.setup() };
}

const topBar = () => screen.getByRole('navigation', { name: 'Main' });
const h1 = () => screen.getByRole('heading', { level: 1 });

/** Goes back one entry and waits for the popstate jsdom fires. */
async function back() {
  const popped = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
  window.history.back();
  await popped;
}

describe('the marketing routes', () => {
  it('are the marketing routes of the app router, so each address shows the same page under both entries', () => {
    const appPaths = marketingRoutes.map((r) => (r.index ? '/' : `/${r.path}`)).sort();
    expect(Object.keys(MARKETING_PAGES).sort()).toEqual(appPaths);
  });

  it('match like react-router: any case, trailing slash ignored, nothing else', () => {
    expect(marketingPage('/')).toBe(MARKETING_PAGES['/']);
    expect(marketingPage('/FAQ/')).toBe(MARKETING_PAGES['/faq']);
    for (const other of ['/generator', '/login', '/faq/more', '/index.html', '/no-such-page', '/constructor', '/__proto__']) {
      expect(marketingPage(other)).toBeUndefined();
    }
  });
});

describe('MarketingRouter', () => {
  it('follows the top bar without a reload: new page, address, history entry, scroll to top, focus and announcement', async () => {
    const { user, onLeave } = await openAt('/');
    expect(h1()).toHaveTextContent('Framewright');
    const entries = window.history.length;

    await user.click(within(topBar()).getByRole('link', { name: 'Pricing' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Simple credit packs' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/pricing');
    expect(window.history.length).toBe(entries + 1);
    expect(window.history.state).toEqual({ usr: undefined, key: expect.any(String), idx: 1 });
    expect(within(topBar()).getByRole('link', { name: 'Pricing' })).toHaveAttribute('aria-current', 'page');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
    expect(document.title).toBe('Pricing · Framewright');
    expect(screen.getByText('Pricing · Framewright', { selector: '[aria-live]' })).toBeInTheDocument();
    expect(onLeave).not.toHaveBeenCalled();
  });

  it('goes back and forward with the browser', async () => {
    const { user } = await openAt('/faq');
    await user.click(within(topBar()).getByRole('link', { name: 'Features' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'The models behind Framewright' })).toBeInTheDocument();

    await act(back);
    expect(await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/faq');
    expect(within(topBar()).getByRole('link', { name: 'FAQ' })).toHaveAttribute('aria-current', 'page');
  });

  it('hands a link to any other address to the app, keeping the page until the app is there', async () => {
    const { user, onLeave } = await openAt('/features');
    await user.click(within(topBar()).getByRole('link', { name: 'Go To App' }));
    expect(onLeave).toHaveBeenCalledWith({ to: '/generator', options: { replace: false, state: undefined } });
    // The app moves the address itself once it is ready; the marketing page stays until then.
    expect(window.location.pathname).toBe('/features');
    expect(h1()).toHaveTextContent('The models behind Framewright');
  });

  it('hands back/forward onto an app address to the app', async () => {
    window.history.replaceState(null, '', '/login');
    window.history.pushState(null, '', '/features');
    const { onLeave } = await openAt('/features');
    await act(back);
    await waitFor(() => expect(onLeave).toHaveBeenCalledWith(undefined));
    expect(window.location.pathname).toBe('/login');
  });

  it('starts loading the app when the pointer or focus reaches a link into it, and nothing for other links', async () => {
    const { user, onLeaveIntent } = await openAt('/');
    await user.hover(screen.getAllByRole('link', { name: 'Start Creating' })[0]!);
    expect(onLeaveIntent).toHaveBeenCalledTimes(1);
    await user.hover(within(topBar()).getByRole('link', { name: 'Learn' }));
    expect(onLeaveIntent).toHaveBeenCalledTimes(1);
  });

  it('leaves new-tab and modified clicks to the browser', async () => {
    const { onLeave } = await openAt('/');
    // Whether the page handled a click itself; jsdom cannot load pages, so the browser's part is skipped.
    const handled = (el: HTMLElement, init?: MouseEventInit) => {
      let prevented = false;
      const spy = (e: Event) => {
        prevented = e.defaultPrevented;
        e.preventDefault();
      };
      window.addEventListener('click', spy, { once: true });
      fireEvent.click(el, init);
      return prevented;
    };
    const pricing = within(topBar()).getByRole('link', { name: 'Pricing' });
    const goToApp = within(topBar()).getByRole('link', { name: 'Go To App' });
    expect(handled(pricing, { ctrlKey: true })).toBe(false);
    expect(handled(pricing, { metaKey: true })).toBe(false);
    expect(handled(goToApp, { shiftKey: true })).toBe(false);
    expect(handled(pricing, { button: 1 })).toBe(false);
    expect(onLeave).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/');
    expect(handled(goToApp)).toBe(true);
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('shows the payment return message the server confirms and cleans the address in place', async () => {
    setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_test', userPoolClientId: 'client', apiBaseUrl: 'https://app.example.test' });
    global.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      text: async () => JSON.stringify({ outcome: 'success', credits: 150, buyer: 'u***@e***.com' }),
    })) as unknown as typeof fetch;
    await openAt('/?payment=success&order=ORDER0000000000042&utm_source=mail#models');
    const entries = window.history.length;
    expect(await screen.findByRole('status')).toHaveTextContent('Payment successful! 150 credits added to user u***@e***.com.');
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/?utm_source=mail#models'));
    expect(window.history.length).toBe(entries);
    expect(screen.getByRole('status')).toHaveTextContent('Payment successful! 150 credits added to user u***@e***.com.');
  });

  it('closes the mobile menu after following one of its links', async () => {
    const { user } = await openAt('/');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(within(topBar()).getByRole('link', { name: 'Learn' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your first clip in six steps' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('does not add a history entry for a link to the page on screen', async () => {
    const { user } = await openAt('/pricing');
    const entries = window.history.length;
    await user.click(within(topBar()).getByRole('link', { name: 'Pricing' }));
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 0));
    expect(window.history.length).toBe(entries);
    expect(h1()).toHaveTextContent('Simple credit packs');
  });
});
