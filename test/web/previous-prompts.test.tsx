import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PreviousPromptsTab from '../../web/src/features/account/tabs/previous-prompts';
import { mediaItem, renderLoaded, setUpGenerator, tearDownGenerator, type FakeApi } from './helpers/generator-env';

let api: FakeApi;

const renderTab = () => renderLoaded('/admin', <PreviousPromptsTab />);

const gallery = () => screen.getByRole('region', { name: 'Previous Prompts' });

afterEach(() => tearDownGenerator());

describe('My Account > Previous Prompts', () => {
  it("shows 'No previous prompts to display.' when there is nothing", async () => {
    api = setUpGenerator();
    await renderTab();
    expect(within(gallery()).getByText('No previous prompts to display.')).toBeInTheDocument();
    // An empty state leads somewhere.
    expect(within(gallery()).getByRole('link', { name: 'Create an image' })).toHaveAttribute('href', '/generator');
    expect(within(gallery()).getByRole('link', { name: 'Make a video' })).toHaveAttribute('href', '/video-generator');
    // Images and videos together: no type filter.
    expect(api.calls('GET', '/api/media')[0]!.query.has('type')).toBe(false);
  });

  it('lists images and videos together, newest first, videos in a player, each with Download and Delete', async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', {
      status: 200,
      body: {
        items: [
          mediaItem({ id: 'v', type: 'video', prompt: 'a video prompt', createdAt: '2025-06-07T12:00:00.000Z' }),
          mediaItem({ id: 'i', type: 'image', prompt: 'an image prompt', createdAt: '2025-06-07T11:00:00.000Z' }),
        ],
      },
    });
    await renderTab();
    const cards = within(gallery()).getAllByRole('article');
    expect(cards.map((c) => within(c).getByText(/prompt$/).textContent)).toEqual(['a video prompt', 'an image prompt']);
    // A video tile has no native controls: it previews on hover and opens full size, where the player has them.
    const video = cards[0]!.querySelector('video')!;
    expect(video).not.toHaveAttribute('controls');
    expect(video.muted).toBe(true);
    expect(within(cards[0]!).getByRole('button', { name: 'Open full size: a video prompt' })).toContainElement(video);
    expect(within(cards[0]!).getByRole('link', { name: 'Download video: a video prompt' })).toHaveAttribute('href', 'https://media.test/v.mp4?download');
    // The image opens full size (the lightbox).
    const open = within(cards[1]!).getByRole('button', { name: 'Open full size: an image prompt' });
    expect(open.querySelector('img')).toHaveAttribute('src', 'https://media.test/i.png');
    expect(within(cards[1]!).getByRole('button', { name: 'Delete image: an image prompt' })).toBeInTheDocument();
  });

  it('loads more with the next cursor', async () => {
    api = setUpGenerator();
    const page1 = Array.from({ length: 12 }, (_, i) => mediaItem({ id: `a${i}`, prompt: `first page ${i}`, createdAt: `2025-06-07T12:${String(59 - i).padStart(2, '0')}:00.000Z` }));
    api.on('GET', '/api/media', (req) =>
      req.query.get('cursor') === 'next-1'
        ? { status: 200, body: { items: [mediaItem({ id: 'b0', prompt: 'second page', createdAt: '2025-06-01T00:00:00.000Z' })] } }
        : { status: 200, body: { items: page1, nextCursor: 'next-1' } },
    );
    await renderTab();
    expect(within(gallery()).getAllByRole('article')).toHaveLength(12);
    await userEvent.click(within(gallery()).getByRole('button', { name: 'Load more' }));
    expect(await within(gallery()).findByRole('article', { name: 'second page' })).toBeInTheDocument();
    expect(within(gallery()).getAllByRole('article')).toHaveLength(13);
    expect(within(gallery()).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("says 'Failed to fetch prompts: {reason}'", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 500, body: { error: 'Database timeout', code: 'INTERNAL' } });
    await renderTab();
    expect(within(gallery()).getByText('Failed to fetch prompts: Database timeout')).toBeInTheDocument();
    api.on('GET', '/api/media', { status: 200, body: { items: [] } });
    await userEvent.click(within(gallery()).getByRole('button', { name: 'Try again' }));
    expect(await within(gallery()).findByText('No previous prompts to display.')).toBeInTheDocument();
  });

  it("deletes an item, and says 'Failed to delete prompt: {reason}' when that fails", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items: [mediaItem({ id: 'x', prompt: 'keep me' }), mediaItem({ id: 'y', type: 'video', prompt: 'drop me' })] } });
    api.on('DELETE', '/api/media/x', { status: 500, body: { error: 'Access Denied', code: 'INTERNAL' } });
    api.on('DELETE', '/api/media/y', { status: 204 });
    await renderTab();
    await userEvent.click(within(gallery()).getByRole('button', { name: 'Delete image: keep me' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete this image?' })).getByRole('button', { name: 'Delete' }));
    expect(await within(gallery()).findByText('Failed to delete prompt: Access Denied')).toBeInTheDocument();
    expect(within(gallery()).getByRole('article', { name: 'keep me' })).toBeInTheDocument();

    await userEvent.click(within(gallery()).getByRole('button', { name: 'Delete video: drop me' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete this video?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(gallery()).queryByRole('article', { name: 'drop me' })).not.toBeInTheDocument());
    expect(api.calls('DELETE', '/api/media/y')).toHaveLength(1);
  });

  it('the viewer tells how a result was made in plain words, and does not claim an option the model did not use', async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', {
      status: 200,
      body: {
        items: [
          mediaItem({ id: 'w', type: 'video', prompt: 'a frame comes alive', model: 'wavespeedai/wan-2.1-i2v-480p', options: { duration: 5, aspectRatio: '16:9', startImage: true, seed: 7 }, width: 624, height: 624 }),
          mediaItem({ id: 'p', type: 'video', prompt: 'neon alley', model: 'pixverse/pixverse-v4.5', options: { duration: 5, quality: '540p', aspectRatio: '9:16', style: 'anime', seed: 3 } }),
        ],
      },
    });
    await renderTab();
    await userEvent.click(within(gallery()).getByRole('button', { name: 'Open full size: a frame comes alive' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('From a start image');
    expect(dialog).toHaveTextContent('624 × 624 px');
    expect(within(dialog).queryByRole('list', { name: 'Options' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    const options = within(screen.getByRole('dialog')).getByRole('list', { name: 'Options' });
    expect(options).toHaveTextContent('Aspect ratio: 9:16');
    expect(options).toHaveTextContent('Style: Anime');
    expect(options).toHaveTextContent('Quality: 540p');
  });

  it('the viewer says what a result cost and opens its source, read by id when the list lacks it, or says it is deleted', async () => {
    api = setUpGenerator();
    const source = mediaItem({ id: 'far', type: 'image', prompt: 'an older harbour', createdAt: '2025-01-01T00:00:00.000Z' });
    api.on('GET', '/api/media', {
      status: 200,
      body: {
        items: [
          mediaItem({ id: 'e', type: 'image', prompt: 'a snowy harbour', model: 'black-forest-labs/flux-kontext-pro', options: { sourceMediaId: 'far' }, credits: 2 }),
          mediaItem({ id: 'u', type: 'image', prompt: 'a sharp owl', model: 'nightmareai/real-esrgan', options: { sourceMediaId: 'gone', scale: 2 } }),
          mediaItem({ id: 'b', type: 'image', prompt: 'four foxes', options: { count: 4 }, credits: 8 }),
        ],
      },
    });
    api.on('GET', '/api/media/far', { status: 200, body: source });
    api.on('GET', '/api/media/gone', { status: 404, body: { error: 'This media does not exist.' } });
    await renderTab();
    await userEvent.click(within(gallery()).getByRole('button', { name: 'Open full size: a snowy harbour' }));
    let dialog = screen.getByRole('dialog');
    expect(within(dialog).getByTestId('lightbox-credits')).toHaveTextContent('2 credits');
    const link = await within(dialog).findByRole('button', { name: 'an older harbour' });
    await userEvent.click(link);
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByTestId('lightbox-prompt')).toHaveTextContent('an older harbour'));

    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(gallery()).getByRole('button', { name: 'Open full size: a sharp owl' }));
    dialog = screen.getByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('lightbox-source')).toHaveTextContent('an image you have deleted'));
    expect(within(dialog).queryByTestId('lightbox-credits')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(screen.getByRole('dialog')).getByTestId('lightbox-credits')).toHaveTextContent('8 credits for 4 images');
  });
});
