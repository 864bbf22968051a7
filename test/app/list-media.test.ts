/**
 * list-media: the caller's results filtered by prompt words (every word, any case and order), and what each cost, over
 * in-memory ports.
 */
import { listMedia } from '../../lambdas/app/list-media';
import { searchWords } from '../../lambdas/domain/prompt-search';
import { MemoryCollections } from '../support/fakes/collections';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';
import { MemoryMediaStore } from '../support/fakes/media-store';

function deps() {
  const media = new MemoryMedia();
  const at = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
  media.add(mediaItem('u1', 'a', { prompt: 'A lighthouse at dusk', createdAt: at(1) }));
  media.add(mediaItem('u1', 'b', { prompt: 'Dusk over a red harbour', createdAt: at(2) }));
  media.add(mediaItem('u1', 'c', { prompt: 'A red kite', createdAt: at(3), type: 'video' }));
  media.add(mediaItem('u2', 'd', { prompt: 'A red lighthouse', createdAt: at(4) }));
  return { media, collections: new MemoryCollections(media), store: new MemoryMediaStore(), appUrl: 'https://app.test' };
}

const prompts = async (q: Parameters<typeof listMedia>[2]) => (await listMedia(deps(), 'u1', q)).items.map((i) => i.prompt);

describe('listMedia with a search', () => {
  it('lists the caller’s results whose prompt holds every word, newest first', async () => {
    expect(await prompts({ limit: 24, q: 'dusk' })).toEqual(['Dusk over a red harbour', 'A lighthouse at dusk']);
    expect(await prompts({ limit: 24, q: 'RED dusk' })).toEqual(['Dusk over a red harbour']);
    expect(await prompts({ limit: 24, q: 'light' })).toEqual(['A lighthouse at dusk']);
  });

  it('combines with the kind filter, and an empty search lists everything', async () => {
    expect(await prompts({ limit: 24, q: 'red', type: 'video' })).toEqual(['A red kite']);
    expect(await prompts({ limit: 24, q: '   ' })).toHaveLength(3);
  });
});

describe('listMedia details', () => {
  it('says what each result cost when it was saved with it, and nothing for an older item', async () => {
    const d = deps();
    d.media.add(mediaItem('u1', 'e', { prompt: 'A paid owl', createdAt: '2026-01-05T00:00:00.000Z', credits: 4 }));
    const items = (await listMedia(d, 'u1', { limit: 24 })).items;
    expect(items.map((i) => [i.prompt, i.credits])).toEqual([
      ['A paid owl', 4],
      ['A red kite', undefined],
      ['Dusk over a red harbour', undefined],
      ['A lighthouse at dusk', undefined],
    ]);
  });
});

describe('searchWords', () => {
  it('lower-cases, splits on any space and keeps each word once', () => {
    expect(searchWords('  Red\tDUSK red ')).toEqual(['red', 'dusk']);
    expect(searchWords(undefined)).toEqual([]);
  });
});
