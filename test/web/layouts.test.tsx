import './helpers/router-env';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppLayout } from '../../web/src/app/layouts/app-layout';
import { MarketingLayout } from '../../web/src/app/layouts/marketing-layout';
import { routes } from '../../web/src/app/router';

function renderLayout(Layout: () => React.ReactNode, path = '/') {
  const router = createMemoryRouter(
    [
      {
        Component: Layout,
        children: [
          { path: '/', element: <h1>Home content</h1> },
          { path: '/features', element: <h1>Features content</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  return render(<RouterProvider router={router} />);
}

describe('MarketingLayout', () => {
  it('has the six product links and Go To App in the top bar', () => {
    renderLayout(MarketingLayout);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const expected: Array<[string, string]> = [
      ['Features', '/features'],
      ['Learn', '/learn'],
      ['Contact', '/contact'],
      ['Example', '/example'],
      ['FAQ', '/faq'],
      ['Pricing', '/pricing'],
      ['Go To App', '/generator'],
    ];
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual(expected);
  });

  it('uses landmarks and a skip link to the main content', () => {
    renderLayout(MarketingLayout);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('Home content');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', `#${main.id}`);
  });

  it('opens and closes the mobile menu from the keyboard', async () => {
    const user = userEvent.setup();
    renderLayout(MarketingLayout);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', screen.getByRole('navigation', { name: 'Main' }).id);

    toggle.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('{Escape}');
    const reopened = screen.getByRole('button', { name: 'Open menu' });
    expect(reopened).toHaveAttribute('aria-expanded', 'false');
    expect(reopened).toHaveFocus();
  });

  it('closes the mobile menu after navigating', async () => {
    const user = userEvent.setup();
    renderLayout(MarketingLayout);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('link', { name: 'Features' }));
    expect(await screen.findByRole('heading', { name: 'Features content' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('AppLayout', () => {
  it('shows Login and Sign Up to signed-out visitors', () => {
    renderLayout(() => <AppLayout />);
    const nav = screen.getByRole('navigation', { name: 'App' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Login', '/login'],
      ['Sign Up', '/signup'],
    ]);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Framewright. All rights reserved.');
  });

  it('renders whatever nav the auth feature supplies', () => {
    renderLayout(() => <AppLayout nav={<button type="button">Logout</button>} />);
    const nav = screen.getByRole('navigation', { name: 'App' });
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });
});

describe('app routes', () => {
  it('renders the landing hero with Start Creating -> /generator', async () => {
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/'] })} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Framewright' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/generator');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('shows the 404 page with a link home for unknown paths', async () => {
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/no/such/page'] })} />);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'App' })).toBeInTheDocument();
  });
});
