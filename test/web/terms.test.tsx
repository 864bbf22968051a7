import './helpers/router-env';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { routes } from '../../web/src/app/router';
import { setConfigForTesting } from '../../web/src/lib/config';
import { DELETED_MEDIA_DAYS, TABLE_BACKUP_DAYS } from '../../contract/retention';

describe('/terms', () => {
  beforeEach(() =>
    setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_x', userPoolClientId: 'c', apiBaseUrl: '', supportEmail: 'help@framewright.test' }),
  );

  it("is a public marketing page with the spec's terms", async () => {
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/terms'] })} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    const terms = screen.getByTestId('terms-content');
    for (const fact of [
      'Last updated: June 07, 2025',
      'You must be 18 years of age or older',
      'credits you paid for are missing from your balance',
      'credits were deducted for an image or video that was never delivered',
      'a full refund of a purchase when none of its credits were used and you ask for it within 24 hours of buying',
      'We reply within 2 business days.',
      'governed by the laws of the State of Israel',
      'generates images and videos',
      'a signed C2PA manifest, embedded in the file, that names it as AI-generated with the model and the date it was made',
      'a Content Credentials reader such as contentcredentials.org/verify',
      // What lingers after a deletion, from the same numbers the bucket's lifecycle and the table's recovery use.
      `a deleted image or video stays in our storage as a backup copy for ${DELETED_MEDIA_DAYS} days`,
      `deleted account records stay in our database backups for up to ${TABLE_BACKUP_DAYS} days`,
    ]) {
      expect(terms).toHaveTextContent(fact);
    }
    expect(within(terms).getByRole('link', { name: 'help@framewright.test' })).toHaveAttribute('href', 'mailto:help@framewright.test');
    expect(within(terms).getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(9);
  });

  it('is linked from the footer of every page', async () => {
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/'] })} />);
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('href', '/terms');
  });
});
