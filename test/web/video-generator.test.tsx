import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { PIXVERSE, POLL_INTERVAL_MS, WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { modelBySlug, priceOf, type OptionValues } from '../../contract/models';
import { ACTIVE_JOBS_KEY } from '../../web/src/features/generation/active-jobs';
import { GenerationText } from '../../web/src/features/generation/generation-messages';
import { checkGeneration } from '../../web/src/features/generation/use-generation';
import VideoChooserPage from '../../web/src/features/video-generator/video-chooser-page';
import { VideoModelPage } from '../../web/src/features/video-generator/model-page';
import { fileOf, mediaItem, renderAt, renderLoaded, setUpGenerator, tearDownGenerator, type FakeApi } from './helpers/generator-env';

jest.mock('../../web/src/features/generation/image-file', () => ({
  toStartImagePng: jest.fn(async () => ({ blob: new Blob(['png-bytes'], { type: 'image/png' }), width: 832, height: 480 })),
}));

let api: FakeApi;

const PAGES = {
  wan: () => <VideoModelPage slug="wan" />,
  pixverse: () => <VideoModelPage slug="pixverse" />,
  kling: () => <VideoModelPage slug="kling" />,
} as const;

const renderPage = (family: keyof typeof PAGES) => renderLoaded(`/video-generator/${family}`, PAGES[family]());

const sidebar = () => screen.getByRole('complementary', { name: 'Video settings' });
/** The running jobs' tiles at the top of the results. */
const runningJobs = () => screen.findByRole('region', { name: 'Running' });
const generateButton = () => within(sidebar()).getByRole('button', { name: /^Generate Video/ });
const promptField = () => within(sidebar()).getByLabelText('Prompt');
const errorLine = () => within(sidebar()).getAllByRole('alert')[0]!;
const radio = (name: RegExp) => within(sidebar()).getByRole('radio', { name });

/** The cost the Generate button shows: "Generate Video (12 Credits)". */
function shownCost(): number {
  const m = /\((\d+) Credits?\)/.exec(generateButton().textContent ?? '');
  if (!m) throw new Error(`No cost on the button: ${generateButton().textContent}`);
  return Number(m[1]);
}

/** The cost a radio tile shows for the request with that choice. */
function tileCost(input: HTMLElement): number | undefined {
  const text = within(input.closest('label')!).getByTestId('option-cost').textContent ?? '';
  const m = /^(\d+) credits?$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** POST /api/generations' body as the video pages send it. */
interface Sent {
  model: string;
  prompt: string;
  options?: OptionValues;
  inputs?: { startImage?: string; endImage?: string };
}

/** What the server charges for a model with these options (the registry's price). */
const charge = (slug: string, options: OptionValues) => {
  const p = priceOf(modelBySlug(slug)!, options);
  return p.ok ? p.cost : undefined;
};

function acceptVideoRequests() {
  api.on('POST', '/api/uploads', { status: 200, body: { url: 'https://s3.test/media', fields: { key: 'users/user-1/images/9.png' }, key: 'users/user-1/images/9.png', maxBytes: 5_242_880, maxLongSide: 1280 } });
  api.on('POST', '/media', { status: 204 });
  api.on('POST', '/api/generations', (req) => {
    const body = req.body as Sent;
    const price = priceOf(modelBySlug(body.model)!, body.options ?? {});
    return price.ok ? { status: 200, body: { predictionId: `job-${api.requests.length}`, credits: 500 - price.cost } } : { status: 400, body: { error: price.reason, code: 'INVALID_INPUT' } };
  });
}

afterEach(() => {
  tearDownGenerator();
  jest.useRealTimers();
});

describe('every price the video pages show is what the server charges (the registry\'s priceOf)', () => {
  const choice = (slug: string, id: string) => {
    const o = modelBySlug(slug)!.options[id];
    return o?.kind === 'choice' ? o.values : [];
  };
  const wanCombos = choice('wan', 'duration').flatMap((duration) => [false, true].map((withImage) => ({ duration: Number(duration), withImage })));
  const pixverseCombos = choice('pixverse', 'quality').flatMap((quality) => choice('pixverse', 'duration').map((duration) => ({ quality: String(quality), duration: Number(duration) })));

  it.each(wanCombos)('Wan $duration s, start image: $withImage', async ({ duration, withImage }) => {
    api = setUpGenerator({ credits: 500 });
    acceptVideoRequests();
    await renderPage('wan');
    if (withImage) {
      await userEvent.upload(within(sidebar()).getByLabelText('Start image'), fileOf('frame.png', 'image/png', 30_000));
      await within(sidebar()).findByText(/832×480 px/);
    }
    await userEvent.click(radio(new RegExp(`^${duration} seconds`)));
    const expected = charge('wan', { duration });
    expect(shownCost()).toBe(expected);
    // Every duration tile shows the price of the request it would make.
    for (const d of choice('wan', 'duration')) expect(tileCost(radio(new RegExp(`^${d} seconds`)))).toBe(charge('wan', { duration: d }));

    await userEvent.type(promptField(), 'a paper boat');
    await userEvent.click(generateButton());
    await within(await runningJobs()).findByText('Generating: a paper boat...');
    const sent = api.calls('POST', '/api/generations')[0]!.body as Sent;
    expect(sent).toEqual({ model: 'wan', prompt: 'a paper boat', options: { duration }, ...(withImage ? { inputs: { startImage: 'users/user-1/images/9.png' } } : {}) });
    // The job is followed under the Replicate model the registry's plan runs: image-to-video with a start image.
    expect(JSON.parse(localStorage.getItem(ACTIVE_JOBS_KEY)!)[0]).toMatchObject({ model: withImage ? WAN_I2V : WAN_T2V });
    // What the server charges for the request the page sent is what the page showed.
    expect(charge(sent.model, sent.options ?? {})).toBe(shownCost());
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent(String(500 - expected!));
  });

  it.each(pixverseCombos)('Pixverse $quality, $duration s', async ({ quality, duration }) => {
    api = setUpGenerator({ credits: 500 });
    acceptVideoRequests();
    await renderPage('pixverse');
    const expected = priceOf(modelBySlug('pixverse')!, { duration, quality });
    await userEvent.click(radio(new RegExp(`^${quality}`)));
    if (!expected.ok) {
      // The combination cannot be ordered: its tile is disabled and says why.
      expect(radio(new RegExp(`^${duration} seconds`))).toBeDisabled();
      expect(within(sidebar()).getByText(expected.reason)).toBeInTheDocument();
      return;
    }
    await userEvent.click(radio(new RegExp(`^${duration} seconds`)));
    expect(shownCost()).toBe(expected.cost);
    for (const q of choice('pixverse', 'quality')) expect(tileCost(radio(new RegExp(`^${q}`)))).toBe(charge('pixverse', { duration, quality: q }));
    for (const d of choice('pixverse', 'duration')) expect(tileCost(radio(new RegExp(`^${d} seconds`)))).toBe(charge('pixverse', { duration: d, quality }));

    await userEvent.type(promptField(), 'city lights');
    await userEvent.click(generateButton());
    await within(await runningJobs()).findByText('Generating: city lights...');
    const sent = api.calls('POST', '/api/generations')[0]!.body as Sent;
    expect(sent).toEqual({ model: 'pixverse', prompt: 'city lights', options: { quality, duration } });
    expect(charge(sent.model, sent.options ?? {})).toBe(shownCost());
  });
});

describe('video generator: options', () => {
  it('Pixverse defaults to 720p and 5 s, says the long clip is 8 s at double price, and keeps 1080p to 5 s', async () => {
    api = setUpGenerator({ credits: 50 });
    await renderPage('pixverse');
    expect(radio(/^720p/)).toBeChecked();
    expect(radio(/^5 seconds/)).toBeChecked();
    expect(within(sidebar()).getByText(/makes 5- or 8-second clips \(not 10\): the 8-second clip costs double, and 1080p is available only at 5 seconds/)).toBeInTheDocument();
    await userEvent.click(radio(/^8 seconds/));
    expect(radio(/^1080p/)).toBeDisabled();
    await userEvent.click(radio(/^5 seconds/));
    await userEvent.click(radio(/^1080p/));
    expect(radio(/^8 seconds/)).toBeDisabled();
    expect(within(sidebar()).queryByLabelText(/^10 seconds/)).not.toBeInTheDocument();
  });

  it('Wan offers 5 and 10 s and an optional start image', async () => {
    api = setUpGenerator({ credits: 50 });
    await renderPage('wan');
    expect(radio(/^5 seconds/)).toBeChecked();
    expect(radio(/^10 seconds/)).toBeEnabled();
    expect(within(sidebar()).getByLabelText('Start image')).toBeInTheDocument();
    expect(within(sidebar()).queryByRole('radio', { name: /^1080p/ })).not.toBeInTheDocument();
  });

  it('disables the controls while the balance is unknown, and the prompt and Generate when it is below the cost', async () => {
    api = setUpGenerator({ credits: 'unknown' });
    api.on('GET', '/api/me', () => new Promise(() => undefined));
    await renderPage('wan');
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent('Loading...');
    expect(generateButton()).toBeDisabled();
    expect(promptField()).toBeDisabled();
    expect(radio(/^10 seconds/)).toBeDisabled();
    tearDownGenerator();

    api = setUpGenerator({ credits: 10 });
    await renderPage('wan');
    expect(generateButton()).toBeEnabled();
    await userEvent.click(radio(/^10 seconds/));
    expect(generateButton()).toHaveTextContent('Generate Video (16 Credits)');
    expect(generateButton()).toBeDisabled();
    expect(promptField()).toBeDisabled();
    // A cheaper option can still be picked.
    await userEvent.click(radio(/^5 seconds/));
    expect(generateButton()).toBeEnabled();
  });
});

describe('video generator: messages', () => {
  it("asks for a prompt: 'Prompt is required.'", async () => {
    api = setUpGenerator({ credits: 50 });
    await renderPage('wan');
    await userEvent.click(generateButton());
    expect(errorLine()).toHaveTextContent('Prompt is required.');
    expect(api.calls('POST', '/api/generations')).toHaveLength(0);
  });

  it('checks in the order of the spec', () => {
    const texts = { enterPrompt: GenerationText.promptRequired, signIn: GenerationText.signIn, failed: GenerationText.errorGeneratingVideo };
    const validateVideoRequest = (d: { prompt: string; signedIn: boolean; credits: number | undefined; cost: number }) =>
      checkGeneration(modelBySlug('wan')!, texts, { ...d, options: {}, given: new Set() });
    expect(validateVideoRequest({ prompt: '', signedIn: false, credits: 0, cost: 8 })).toBe('Prompt is required.');
    expect(validateVideoRequest({ prompt: 'x', signedIn: false, credits: 50, cost: 8 })).toBe('Please sign in.');
    expect(validateVideoRequest({ prompt: 'x', signedIn: true, credits: 7, cost: 8 })).toBe('Not enough credits. Required: 8');
    expect(validateVideoRequest({ prompt: 'x', signedIn: true, credits: undefined, cost: 12 })).toBe('Not enough credits. Required: 12');
    expect(validateVideoRequest({ prompt: 'x', signedIn: true, credits: 8, cost: 8 })).toBeUndefined();
  });

  it("shows a refused request as 'Error generating video: {message}'", async () => {
    api = setUpGenerator({ credits: 50 });
    api.on('POST', '/api/generations', { status: 402, body: { error: 'Not enough credits. Required: 8', code: 'NOT_ENOUGH_CREDITS' } });
    await renderPage('wan');
    await userEvent.type(promptField(), 'waves');
    await userEvent.click(generateButton());
    expect(await within(sidebar()).findByText('Error generating video: Not enough credits. Required: 8')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("says 'No prediction ID returned from server.' when the answer has none", async () => {
    api = setUpGenerator({ credits: 50 });
    api.on('POST', '/api/generations', { status: 200, body: {} });
    await renderPage('pixverse');
    await userEvent.type(promptField(), 'waves');
    await userEvent.click(generateButton());
    expect(await within(sidebar()).findByText('No prediction ID returned from server.')).toBeInTheDocument();
  });
});

describe('video generator: a job with progress, modal and preview', () => {
  it('opens the loading modal with progress, lets it be hidden, and shows the video when done', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    api = setUpGenerator({ credits: 20 });
    let done = false;
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'vid-1', credits: 12 } });
    api.on('GET', '/api/check-status/*', () =>
      done
        ? { status: 200, body: { status: 'succeeded', videoUrl: 'https://media.test/vid-1.mp4', mediaId: 'm-vid', value: 12 } }
        : { status: 200, body: { status: 'processing', value: 12 } },
    );
    await renderPage('wan');
    await user.type(promptField(), 'a paper boat');
    await user.click(generateButton());

    const dialog = await screen.findByRole('dialog', { name: 'Generating your video' });
    expect(within(dialog).getByText('Generating: a paper boat...')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuetext', expect.stringMatching(/^0:0\d elapsed, usually about 1 min 30 s$/));
    expect(within(dialog).getByRole('button', { name: 'Continue in background' })).toHaveFocus();
    expect(JSON.parse(localStorage.getItem(ACTIVE_JOBS_KEY)!)).toEqual([expect.objectContaining({ predictionId: 'vid-1', prompt: 'a paper boat', kind: 'video', model: WAN_T2V })]);

    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(within(dialog).getByText(/^0:0[5-7] elapsed/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Continue in background' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The job and its progress stay as a tile above the results with its Cancel button; a running job locks nothing (the queue).
    expect(within(await runningJobs()).getByRole('progressbar')).toBeInTheDocument();
    expect(within(await runningJobs()).getByRole('button', { name: 'Cancel a paper boat' })).toBeEnabled();
    expect(generateButton()).toBeEnabled();
    expect(radio(/^10 seconds/)).toBeEnabled();

    done = true;
    api.on('GET', '/api/media', { status: 200, body: { items: [mediaItem({ id: 'm-vid', type: 'video', prompt: 'a paper boat', url: 'https://media.test/vid-1.mp4' })] } });
    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    await waitFor(() => expect(screen.getByTestId('video-preview')).toHaveAttribute('src', 'https://media.test/vid-1.mp4'));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(generateButton()).toBeEnabled();
    expect(await screen.findByRole('article', { name: 'a paper boat' })).toBeInTheDocument();
  });

  it('estimates a 10 s Wan clip, made in two parts, at twice the time of one', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    api = setUpGenerator({ credits: 20 });
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'vid-10', credits: 4 } });
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'processing', value: 4 } });
    await renderPage('wan');
    await user.click(radio(/^10 seconds/));
    await user.type(promptField(), 'a long boat ride');
    await user.click(generateButton());

    const dialog = await screen.findByRole('dialog', { name: 'Generating your video' });
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuetext', expect.stringMatching(/^0:0\d elapsed, usually about 3 min$/));
    await act(() => jest.advanceTimersByTimeAsync(200_000));
    expect(within(dialog).getByText('Taking a little longer than usual. This clip is made in 2 parts and can take up to 6 min.')).toBeInTheDocument();
  });

  it("shows a failed job's error, or 'Video generation failed' when the server gives none", async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    api = setUpGenerator({ credits: 20 });
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'vid-f', credits: 11 } });
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'failed', value: 20 } });
    await renderPage('pixverse');
    await user.type(promptField(), 'storm');
    await user.click(generateButton());
    await screen.findByRole('dialog');
    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(errorLine()).toHaveTextContent('Video generation failed');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent('20');
  });

  it("a Wan page does not show Pixverse's jobs", async () => {
    api = setUpGenerator({ credits: 20 });
    localStorage.setItem(
      ACTIVE_JOBS_KEY,
      JSON.stringify([{ predictionId: 'p-1', prompt: 'pixverse job', createdAt: Date.now(), kind: 'video', model: PIXVERSE, owner: 'user-1' }]),
    );
    const { jobTracker } = await import('../../web/src/features/generation/jobs');
    jobTracker.syncFromStorage();
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'processing', value: 20 } });
    await renderPage('wan');
    expect(screen.queryByText('Generating: pixverse job...')).not.toBeInTheDocument();
    expect(generateButton()).toBeEnabled();
  });
});

describe('video generator: Previous Videos', () => {
  it("lists videos in players with their prompt or 'No prompt', Download and Delete", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', {
      status: 200,
      body: { items: [mediaItem({ id: 'v1', type: 'video', prompt: 'ocean' }), mediaItem({ id: 'v2', type: 'video', prompt: '', model: PIXVERSE, options: { duration: 8, quality: '720p' } })] },
    });
    await renderPage('wan');
    expect(api.calls('GET', '/api/media')[0]!.query.get('type')).toBe('video');
    const gallery = screen.getByRole('region', { name: 'Previous Videos' });
    const ocean = within(gallery).getByRole('article', { name: 'ocean' });
    expect(ocean.querySelector('video')).toHaveAttribute('src', 'https://media.test/v1.mp4');
    expect(within(ocean).getByRole('link', { name: 'Download video: ocean' })).toHaveAttribute('href', 'https://media.test/v1.mp4?download');
    const unnamed = within(gallery).getByRole('article', { name: 'No prompt' });
    expect(within(unnamed).getByText(/Pixverse v4.5 · 8 s · 720p/)).toBeInTheDocument();
    // The preview shows the newest Wan video.
    expect(screen.getByTestId('video-preview')).toHaveAttribute('src', 'https://media.test/v1.mp4');
  });

  it("says 'Failed to delete video' when deleting fails", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items: [mediaItem({ id: 'v1', type: 'video', prompt: 'ocean' })] } });
    api.on('DELETE', '/api/media/v1', { status: 500, text: 'boom' });
    await renderPage('wan');
    await userEvent.click(screen.getByRole('button', { name: 'Delete video: ocean' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete this video?' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete video')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'ocean' })).toBeInTheDocument();
  });

  it("says 'Failed to load previous videos', and 'Error fetching data: {message}' when a further page fails", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 503, body: { error: 'Service Unavailable', code: 'UNAVAILABLE' } });
    const { unmount } = await renderPage('pixverse');
    expect(screen.getByText('Failed to load previous videos')).toBeInTheDocument();
    unmount();

    const first = Array.from({ length: 12 }, (_, i) => mediaItem({ id: `v${i}`, type: 'video', prompt: `clip ${i}` }));
    api.on('GET', '/api/media', (req) =>
      req.query.get('cursor') ? { status: 500, body: { error: 'Database timeout', code: 'INTERNAL' } } : { status: 200, body: { items: first, nextCursor: 'c2' } },
    );
    await renderPage('pixverse');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Error fetching data: Database timeout')).toBeInTheDocument();
  });
});

describe('video chooser', () => {
  it('links every available video model to its generator, Kling 2.1 with its start image required', async () => {
    api = setUpGenerator();
    renderAt('/video-generator', <VideoChooserPage />);
    const list = screen.getByRole('list', { name: 'Video models' });
    expect(within(list).getByRole('link', { name: 'Wan 2.1 (480p)' })).toHaveAttribute('href', '/video-generator/wan');
    expect(within(list).getByRole('link', { name: 'Pixverse v4.5' })).toHaveAttribute('href', '/video-generator/pixverse');
    const kling = within(list).getByRole('link', { name: 'Kling 2.1' });
    expect(kling).toHaveAttribute('href', '/video-generator/kling');
    expect(within(kling).getByText('Start image required')).toBeInTheDocument();
    expect(within(list).queryByText('Upcoming')).not.toBeInTheDocument();
    // The starting prices come from the registry (Wan and Kling both from 8).
    expect(within(list).getAllByText('From 8 credits')).toHaveLength(2);
    expect(within(list).getByText('From 6 credits')).toBeInTheDocument();
  });
});

describe('video generator: the queue never blocks the page', () => {
  it('after "Continue in background" no window opens again, also after a reload; jobs stay tiles with prompt, model and queue place', async () => {
    api = setUpGenerator({ credits: 100 });
    acceptVideoRequests();
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'starting', value: 84 } });
    const first = await renderPage('wan');
    await userEvent.type(promptField(), 'a paper boat drifting down a long rainy street at dusk');
    await userEvent.click(generateButton());
    const dialog = await screen.findByRole('dialog', { name: 'Generating your video' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue in background' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // A reload: the page is made again from what the browser kept.
    first.unmount();
    await renderPage('wan');
    const tile = within(await runningJobs()).getByRole('listitem');
    expect(tile).toHaveTextContent('Generating: a paper boat drifting down a long rainy street at dusk...');
    expect(tile).toHaveTextContent('Wan 2.1');
    expect(tile).toHaveTextContent('1st in your queue');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.type(promptField(), 'a second boat');
    await userEvent.click(generateButton());
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Running' })).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.getByRole('region', { name: 'Running' })).toHaveTextContent('2nd in your queue');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a disabled Generate says why beside it', async () => {
    api = setUpGenerator({ credits: 3 });
    await renderPage('wan');
    expect(generateButton()).toBeDisabled();
    const reason = within(sidebar()).getByTestId('generate-blocked-reason');
    expect(reason).toHaveTextContent(`Not enough credits: this costs ${shownCost()} and you have 3.`);
    expect(generateButton()).toHaveAccessibleDescription(reason.textContent!);
  });

  it('a disabled Generate with a full queue says so', async () => {
    api = setUpGenerator({ credits: 100 });
    const jobs = [1, 2, 3, 4].map((n) => ({ predictionId: `q-${n}`, prompt: `job ${n}`, createdAt: Date.now(), kind: 'image', model: 'stability-ai/sdxl', owner: 'user-1' }));
    localStorage.setItem(ACTIVE_JOBS_KEY, JSON.stringify(jobs));
    const { jobTracker } = await import('../../web/src/features/generation/jobs');
    jobTracker.syncFromStorage();
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'starting', value: 100 } });
    await renderPage('wan');
    expect(generateButton()).toBeDisabled();
    expect(within(sidebar()).getByTestId('generate-blocked-reason')).toHaveTextContent('4 generations are running, the most at once.');
  });
});

describe("video generator: each page's history is its own model's", () => {
  it.each(['wan', 'pixverse'] as const)('the %s page lists only its own videos', async (family) => {
    api = setUpGenerator();
    await renderPage(family);
    const asked = api.calls('GET', '/api/media').map((r) => [r.query.get('type'), r.query.get('model')]);
    expect(asked).toContainEqual(['video', family]);
    expect(asked.every(([, model]) => model === family)).toBe(true);
  });
});

describe('video generator: honest options', () => {
  it("disables Wan's aspect ratio once a start image is chosen, says why, and does not send it", async () => {
    api = setUpGenerator({ credits: 500 });
    acceptVideoRequests();
    await renderPage('wan');
    const aspect = within(sidebar()).getByLabelText('Aspect ratio');
    expect(aspect).toBeEnabled();
    await userEvent.selectOptions(aspect, '9:16');
    await userEvent.upload(within(sidebar()).getByLabelText('Start image'), fileOf('frame.png', 'image/png', 30_000));
    await waitFor(() => expect(within(sidebar()).getByLabelText('Aspect ratio')).toBeDisabled());
    expect(within(sidebar()).getByLabelText('Aspect ratio')).toHaveAccessibleDescription('A start image sets the shape: the clip keeps the image’s own aspect ratio.');
    await userEvent.type(promptField(), 'the frame comes alive');
    await userEvent.click(generateButton());
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(1));
    expect((api.calls('POST', '/api/generations')[0]!.body as Sent).options).not.toHaveProperty('aspectRatio');
  });

  it("shows a Pixverse result's chosen style on its card", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items: [mediaItem({ id: 'v3', type: 'video', prompt: 'neon alley', model: PIXVERSE, options: { duration: 5, quality: '540p', style: 'anime' } })] } });
    await renderPage('pixverse');
    expect(await screen.findByRole('article', { name: 'neon alley' })).toHaveTextContent('Pixverse v4.5 · 5 s · 540p · Anime style');
  });
});

describe('Kling 2.1: a start image, and an end image where the registry says the model takes one', () => {
  /** Each upload gets its own key, so the request shows which picture went where. */
  function acceptKlingRequests() {
    acceptVideoRequests();
    let n = 0;
    api.on('POST', '/api/uploads', () => {
      const key = `users/user-1/images/${++n}.png`;
      return { status: 200, body: { url: 'https://s3.test/media', fields: { key }, key, maxBytes: 5_242_880, maxLongSide: 1280 } };
    });
  }
  const pick = async (label: string, name: string) => {
    await userEvent.upload(within(sidebar()).getByLabelText(label), fileOf(name, 'image/png', 30_000));
    expect(await within(sidebar()).findByAltText(`${label} preview`)).toBeInTheDocument();
  };

  it('shows a required start image and an optional end image with their hints; Wan takes no end image', async () => {
    api = setUpGenerator({ credits: 500 });
    await renderPage('kling');
    expect(within(sidebar()).getByText('(required)')).toBeInTheDocument();
    expect(within(sidebar()).getByLabelText('Start image')).toHaveAccessibleDescription('Required. The clip starts from this frame.');
    expect(within(sidebar()).getByLabelText('End image')).toHaveAccessibleDescription('Optional, in 1080p. The clip ends on this frame.');
    tearDownGenerator();
    api = setUpGenerator({ credits: 500 });
    await renderPage('wan');
    expect(within(sidebar()).getByLabelText('Start image')).toBeInTheDocument();
    expect(within(sidebar()).queryByLabelText('End image')).not.toBeInTheDocument();
  });

  it("refuses an end image without a start image, and an end image at 720p, in the server's words, sending nothing", async () => {
    api = setUpGenerator({ credits: 500 });
    acceptKlingRequests();
    await renderPage('kling');
    await userEvent.type(promptField(), 'the door opens');
    await pick('End image', 'last.png');
    await userEvent.click(generateButton());
    expect(errorLine()).toHaveTextContent('Kling 2.1 needs start image (inputs.startImage).');
    await pick('Start image', 'first.png');
    await userEvent.click(generateButton());
    expect(errorLine()).toHaveTextContent('An end image needs 1080p quality.');
    expect(api.calls('POST', '/api/uploads')).toHaveLength(0);
    expect(api.calls('POST', '/api/generations')).toHaveLength(0);
  });

  it("'Use settings' of a Kling clip brings back its start and end images from the user's results, sent by id", async () => {
    api = setUpGenerator({ credits: 500 });
    acceptKlingRequests();
    const first = mediaItem({ id: 'first', prompt: 'a closed door' });
    const last = mediaItem({ id: 'last', prompt: 'an open door' });
    const clip = mediaItem({ id: 'k1', type: 'video', prompt: 'the door opens', model: 'kwaivgi/kling-v2.1', options: { quality: '1080p', duration: 5, startImage: true, startMediaId: 'first', endImage: true, endMediaId: 'last' } });
    for (const item of [first, last, clip]) api.on('GET', `/api/media/${item.id}`, { status: 200, body: item });
    const router = createMemoryRouter([{ path: '/video-generator/kling', element: PAGES.kling() }], { initialEntries: ['/video-generator/kling?reuse=k1&use=settings'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('figure', { name: 'End image' })).toBeInTheDocument();
    expect(within(sidebar()).getByRole('figure', { name: 'Start image' })).toBeInTheDocument();
    expect(promptField()).toHaveValue('the door opens');
    await userEvent.click(generateButton());
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(1));
    expect((api.calls('POST', '/api/generations')[0]!.body as Sent).inputs).toEqual({ startImage: 'first', endImage: 'last' });
    expect(api.calls('POST', '/api/uploads')).toHaveLength(0);
  });

  it('orders a 1080p clip from a start to an end image, charged what the button shows', async () => {
    api = setUpGenerator({ credits: 500 });
    acceptKlingRequests();
    await renderPage('kling');
    await pick('Start image', 'first.png');
    await pick('End image', 'last.png');
    await userEvent.click(radio(/^1080p/));
    await userEvent.click(radio(/^10 seconds/));
    const shown = shownCost();
    expect(shown).toBe(charge('kling', { quality: '1080p', duration: 10 }));
    await userEvent.type(promptField(), 'the door opens');
    await userEvent.click(generateButton());
    await within(await runningJobs()).findByText('Generating: the door opens...');
    const sent = api.calls('POST', '/api/generations')[0]!.body as Sent;
    expect(sent).toEqual({
      model: 'kling',
      prompt: 'the door opens',
      options: { quality: '1080p', duration: 10 },
      inputs: { startImage: 'users/user-1/images/1.png', endImage: 'users/user-1/images/2.png' },
    });
    expect(charge(sent.model, sent.options ?? {})).toBe(shown);
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent(String(500 - shown));
  });
});
