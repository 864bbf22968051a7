import './helpers/router-env';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { CREDIT_PACKS, formatUsd } from '../../contract/packs';
import { everyCombination, modelBySlug, priceOf } from '../../contract/models';
import { MODEL_VIEWS } from '../../contract/models/view';
import { FeaturesPage } from '../../web/src/features/marketing/features-page';
import { FaqPage } from '../../web/src/features/marketing/faq-page';
import { PricingPage } from '../../web/src/features/marketing/pricing-page';
import { PLANS } from '../../contract/plans';
import { ExamplePage } from '../../web/src/features/marketing/example-page';
import { EXAMPLES, HERO_CLIP, heroLabel } from '../../web/src/features/marketing/media';
import { SHOWCASE_RENDERS } from '../../web/src/features/marketing/showcase-renders';
import { SHOWCASE, SHOWCASE_ITEMS } from '../../contract/showcase';

const inRouter = (ui: React.ReactNode) => render(<MemoryRouter>{ui}</MemoryRouter>);
/** A date as the AI-generated labels show it: the viewer's local date. */
const day = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse(iso));

describe('PricingPage', () => {
  it('shows every credit pack from the contract with its price', () => {
    inRouter(<PricingPage />);
    for (const pack of CREDIT_PACKS) {
      const card = screen.getByTestId(`pack-${pack.id}`);
      expect(within(card).getByRole('heading', { name: `${pack.credits} credits` })).toBeInTheDocument();
      expect(card).toHaveTextContent(formatUsd(pack.cents));
      expect(card).toHaveTextContent(`Equivalent to ${Math.floor(pack.credits / 8)} basic videos`);
    }
    // No past date presented as the future.
    expect(document.body.textContent).not.toMatch(/2025/);
  });

  it('shows every plan from the contract beside the packs, with a Subscribe link that comes back to /pricing', () => {
    inRouter(<PricingPage />);
    for (const plan of PLANS) {
      const card = screen.getByTestId(`plan-${plan.id}`);
      expect(within(card).getByRole('heading', { name: plan.name })).toBeInTheDocument();
      expect(card).toHaveTextContent(formatUsd(plan.cents));
      expect(card).toHaveTextContent(`${plan.credits} credits every month`);
      expect(within(card).getByRole('link', { name: `Subscribe to ${plan.name} for ${formatUsd(plan.cents)} a month` })).toHaveAttribute(
        'href',
        `/buy?plan=${plan.id}&from=%2Fpricing`,
      );
    }
  });

  it('prices every orderable model and operation as the server charges it, and nothing else', () => {
    inRouter(<PricingPage />);
    const priced = MODEL_VIEWS.filter((m) => !m.upcoming);
    expect(screen.getAllByTestId(/^costs-/).map((e) => e.dataset.testid)).toEqual(priced.map((m) => `costs-${m.id}`));
    for (const view of priced) {
      const model = modelBySlug(view.id)!;
      const card = screen.getByTestId(`costs-${view.id}`);
      if (!view.prices) {
        // Variations: priced as their source, nothing of their own to show.
        expect(card).toHaveTextContent('The same price as the picture it starts from.');
        continue;
      }
      const { rows, columns } = view.prices;
      // Every combination of the choices the table spans, priced with the server's own function.
      for (const combo of everyCombination(model)) {
        const r = rows ? combo[rows.id] : undefined;
        const c = columns ? combo[columns.id] : undefined;
        const others = Object.entries(combo).filter(([id]) => id !== rows?.id && id !== columns?.id);
        if (others.some(([id, v]) => (model.options[id] as { default: unknown }).default !== v)) continue;
        const price = priceOf(model, combo);
        expect(within(card).getByTestId(`cost-${view.id}-${r ?? 'default'}-${c ?? 'default'}`)).toHaveTextContent(
          price.ok ? `${price.cost} credit` : 'not offered',
        );
      }
    }
    // The known facts, as the spec states them.
    expect(screen.getByTestId('cost-wan-default-10')).toHaveTextContent('16 credits');
    expect(screen.getByTestId('cost-pixverse-1080p-5')).toHaveTextContent('12 credits');
    expect(screen.getByTestId('cost-pixverse-1080p-8')).toHaveTextContent('not offered');
  });
});

describe('FeaturesPage', () => {
  it('has a card for every model and operation of the registry, with its tagline and strengths, upcoming ones marked', () => {
    inRouter(<FeaturesPage />);
    for (const view of MODEL_VIEWS) {
      const card = screen.getByTestId(`model-${view.id}`);
      expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent(view.name);
      expect(card).toHaveTextContent(view.tagline);
      for (const s of view.strengths) expect(card).toHaveTextContent(s);
      expect(within(card).queryByText('Upcoming') !== null).toBe(view.upcoming);
      for (const id of view.runsOn) expect(card).toHaveTextContent(id);
    }
  });
});

describe('FaqPage', () => {
  it('has the five sections', () => {
    inRouter(<FaqPage />);
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles).toEqual(['Getting Started', 'Usage & Features', 'Billing & Credits', 'Technical Issues', 'Contact & Support']);
  });

  it('opens and closes an answer from the keyboard', async () => {
    const user = userEvent.setup();
    inRouter(<FaqPage />);
    const question = screen.getByRole('button', { name: 'When will I get an answer?' });
    const panel = document.getElementById(question.getAttribute('aria-controls')!)!;
    expect(question).toHaveAttribute('aria-expanded', 'false');
    expect(panel).not.toBeVisible();
    question.focus();
    await user.keyboard('{Enter}');
    expect(question).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    expect(panel).toHaveTextContent('Monday to Friday, 9:00–17:00 UTC, and reply within 48 hours');
    await user.keyboard(' ');
    expect(question).toHaveAttribute('aria-expanded', 'false');
  });

  it('says what the content credentials hold and how to check them', async () => {
    const user = userEvent.setup();
    inRouter(<FaqPage />);
    const question = screen.getByRole('button', { name: 'How can people tell a result is AI-generated?' });
    await user.click(question);
    const panel = document.getElementById(question.getAttribute('aria-controls')!)!;
    expect(panel).toBeVisible();
    expect(panel).toHaveTextContent('a signed C2PA manifest, embedded in the file, that names it as AI-generated with the model and the date it was made');
    expect(panel).toHaveTextContent('a Content Credentials reader such as contentcredentials.org/verify');
  });
});

describe('the showcase captions', () => {
  // What made each file (npm run showcase): a simulator render is a placeholder whatever its prompt says.
  const placeholders = Object.entries(SHOWCASE_RENDERS).filter(([, r]) => r.provider === 'simulator').map(([id]) => id);
  const prompts = SHOWCASE_ITEMS.filter((i) => placeholders.includes(i.id)).map((i) => i.prompt);

  it('say a placeholder is one, and claim none of the scenes its prompt describes', () => {
    inRouter(<ExamplePage />);
    // Each clip is its poster, a link that plays it (see example-clip.tsx).
    const clips = [...document.querySelectorAll('a[type="video/mp4"]')];
    expect(clips).toHaveLength(EXAMPLES.length);
    for (const e of EXAMPLES) {
      const clip = clips.find((a) => a.getAttribute('href') === e.video)!;
      expect(clip.querySelector('img')).toHaveAttribute('src', e.poster);
      const label = clip.getAttribute('aria-label')!;
      const card = clip.closest('li')!;
      if (placeholders.includes(e.id)) {
        expect(label).toContain('placeholder');
        for (const prompt of prompts) expect(label).not.toContain(prompt);
        // The simulator's shapes are not AI output: nothing says they are.
        expect(card).toHaveTextContent('Placeholder render');
        if (!e.startImage || e.startImage.placeholder) expect(card).not.toHaveTextContent('AI-generated');
      } else {
        expect(label).toContain(e.prompt);
        expect(card).toHaveTextContent(`AI-generated with ${e.madeWith} on ${day(e.madeAt)}`);
      }
    }
    for (const img of document.querySelectorAll('img')) for (const prompt of prompts) expect(img.getAttribute('alt')).not.toContain(prompt);
    if (placeholders.length) {
      expect(document.body).toHaveTextContent(/placeholders from our test simulator/);
      expect(document.body).not.toHaveTextContent(/reproduce/);
    }
  });

  it("the hero's name says what the clip is", () => {
    const label = heroLabel(HERO_CLIP);
    if (placeholders.includes(SHOWCASE.hero.id)) {
      expect(label).toMatch(/^Placeholder clip/);
      expect(label).not.toContain(SHOWCASE.hero.prompt);
    } else expect(label).toContain(SHOWCASE.hero.prompt);
  });

  it('every showcase entry has been rendered, at the size recorded', () => {
    expect(Object.keys(SHOWCASE_RENDERS).sort()).toEqual(SHOWCASE_ITEMS.map((i) => i.id).sort());
  });
});
