import './helpers/router-env';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { modelBySlug } from '../../contract/models';
import { SHOWCASE, SHOWCASE_ITEMS } from '../../contract/showcase';
import { ExamplePage } from '../../web/src/features/marketing/example-page';
import { HeroVideo } from '../../web/src/features/marketing/hero-video';
import { EXAMPLES, HERO_CLIP, heroLabel } from '../../web/src/features/marketing/media';

/**
 * The public examples once the models' own renders replace the simulator's placeholders (`npm run showcase` against
 * Replicate): each says it is AI-generated, with its model and the day it was made, as the share page and viewer do.
 */
jest.mock('../../web/src/features/marketing/showcase-renders', () => {
  const renders = jest.requireActual<typeof import('../../web/src/features/marketing/showcase-renders')>('../../web/src/features/marketing/showcase-renders').SHOWCASE_RENDERS;
  return { SHOWCASE_RENDERS: Object.fromEntries(Object.entries(renders).map(([id, r]) => [id, { ...r, provider: 'replicate' }])) };
});

const day = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse(iso));
const renderedAt = (id: string) => jest.requireActual<typeof import('../../web/src/features/marketing/showcase-renders')>('../../web/src/features/marketing/showcase-renders').SHOWCASE_RENDERS[id]!.renderedAt;

describe('the showcase, rendered by the models', () => {
  it('labels every example on /example, and an image-to-video start frame, as AI-generated with its model and date', () => {
    render(
      <MemoryRouter>
        <ExamplePage />
      </MemoryRouter>,
    );
    for (const e of EXAMPLES) {
      const card = document.querySelector(`a[href="${e.video}"]`)!.closest('li')!;
      expect(card).toHaveTextContent(`AI-generated with ${modelBySlug(e.family)!.name} on ${day(renderedAt(e.id))}`);
      expect(card).not.toHaveTextContent('Placeholder');
    }
    const start = SHOWCASE_ITEMS.find((i) => i.id === SHOWCASE.wanI2vStart.id)!;
    expect(screen.getByText(`AI-generated with ${modelBySlug('sdxl')!.name} on ${day(renderedAt(start.id))}`)).toBeInTheDocument();
  });

  it("the landing's hero says the same on the clip, and no longer calls it a placeholder", () => {
    render(<HeroVideo clip={HERO_CLIP} label={heroLabel(HERO_CLIP)} />);
    expect(screen.getByText(`AI-generated with ${modelBySlug('wan')!.name} on ${day(renderedAt(SHOWCASE.hero.id))}`)).toBeInTheDocument();
    expect(screen.queryByTestId('placeholder-badge')).toBeNull();
  });
});
