/**
 * Every number and model name a public page claims is worked out again here from the registry (contract/models/) and
 * the packs, not read back from the field the page shows: a pack's basic videos are its credits over what a 5 s Wan
 * clip costs; the landing's "How it works", the guide and the sign-in panel name the studio's available models.
 */
import './helpers/router-env';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { CREDIT_PACKS } from '../../contract/packs';
import { priceOf, wan } from '../../contract/models';
import { MODEL_VIEWS } from '../../contract/models/view';
import { PricingPage } from '../../web/src/features/marketing/pricing-page';
import { LandingPage } from '../../web/src/features/marketing/landing-page';
import { LearnPage } from '../../web/src/features/marketing/learn-page';
import { AuthVideo } from '../../web/src/features/auth/auth-shell';

const inRouter = (ui: React.ReactNode) => render(<MemoryRouter>{ui}</MemoryRouter>);
const available = MODEL_VIEWS.filter((m) => !m.upcoming);

describe('claims on the public pages', () => {
  it('gives each pack the basic videos its credits pay for: a 5 s Wan clip at the registry price, rounded down', () => {
    const basic = priceOf(wan, { duration: 5 });
    if (!basic.ok) throw new Error(basic.reason);
    inRouter(<PricingPage />);
    const shown = CREDIT_PACKS.map((pack) => {
      const card = screen.getByTestId(`pack-${pack.id}`);
      const n = Number(/Equivalent to (\d+) basic videos/.exec(card.textContent ?? '')?.[1]);
      expect(n).toBe(Math.floor(pack.credits / basic.cost));
      return n;
    });
    // 72, 150 and 300 credits at 8 credits a clip.
    expect(shown).toEqual([9, 18, 37]);
  });

  it('names in "How it works" every model and operation the studio runs, as the registry names them', () => {
    inRouter(<LandingPage />);
    const how = screen.getByRole('heading', { name: 'How it works' }).closest('section')!;
    const step = within(how).getByRole('heading', { name: 'Pick a model' }).parentElement!;
    for (const m of available) expect(step).toHaveTextContent(m.name);
    expect(step).not.toHaveTextContent(/768 × 768|up to 1080p/);
  });

  it('names every image and video generator on the guide, as the registry names them', () => {
    inRouter(<LearnPage />);
    for (const m of available.filter((v) => v.operation === 'generate')) expect(document.body).toHaveTextContent(m.name);
  });

  it('names every video model the studio runs beside the sign-in form, and the cheapest image price', () => {
    window.matchMedia = ((query: string) => ({ matches: query.includes('min-width'), addEventListener: () => {}, removeEventListener: () => {} })) as unknown as typeof window.matchMedia;
    const { container } = render(<AuthVideo />);
    const cheapest = Math.min(...available.filter((m) => m.kind === 'image' && m.operation === 'generate').map((m) => m.price!));
    expect(container).toHaveTextContent(`Images from ${cheapest} credit${cheapest === 1 ? '' : 's'}.`);
    for (const m of available.filter((v) => v.kind === 'video' && v.operation === 'generate')) expect(container).toHaveTextContent(m.name);
  });
});
