import { Messages } from '../../contract/errors';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { POLL_INTERVAL_MS } from '../../contract/catalog';
import ImageGeneratorPage from '../../web/src/features/image-generator/image-generator-page';
import { sdxl } from '../../contract/models';
import { GenerationText } from '../../web/src/features/generation/generation-messages';
import { checkGeneration } from '../../web/src/features/generation/use-generation';
import { setCredits } from '../../web/src/features/credits';
import { ACTIVE_JOBS_KEY } from '../../web/src/features/generation/active-jobs';
import { fileOf, mediaItem, renderLoaded, setUpGenerator, tearDownGenerator, type FakeApi } from './helpers/generator-env';

jest.mock('../../web/src/features/generation/image-file', () => ({
  toStartImagePng: jest.fn(async () => ({ blob: new Blob(['png-bytes'], { type: 'image/png' }), width: 768, height: 480 })),
}));

let api: FakeApi;

/** Renders /generator and waits until the gallery has loaded (or failed to). */
const renderPage = () => renderLoaded('/generator', <ImageGeneratorPage />);

const sidebar = () => screen.getByRole('complementary', { name: 'Image settings' });
/** The running jobs' tiles at the top of the results. */
const runningJobs = () => screen.findByRole('region', { name: 'Running' });
const generateButton = () => within(sidebar()).getByRole('button', { name: 'Generate Image (1 Credit)' });
const promptField = () => within(sidebar()).getByLabelText('Prompt');
const errorLine = () => within(sidebar()).getAllByRole('alert')[0]!;

afterEach(() => {
  tearDownGenerator();
  jest.useRealTimers();
});

describe('image generator: credits and controls', () => {
  it("shows 'Loading...' until the balance is known, with the prompt and button disabled", async () => {
    api = setUpGenerator({ credits: 'unknown' });
    api.on('GET', '/api/me', () => new Promise(() => undefined));
    await renderPage();
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent('Loading...');
    expect(generateButton()).toBeDisabled();
    expect(promptField()).toBeDisabled();
    act(() => setCredits(4));
    await waitFor(() => expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent('4'));
    expect(generateButton()).toBeEnabled();
    expect(promptField()).toBeEnabled();
  });

  it('disables the prompt and button with fewer than 1 credit, and offers the packs', async () => {
    api = setUpGenerator({ credits: 0 });
    await renderPage();
    expect(generateButton()).toBeDisabled();
    expect(promptField()).toBeDisabled();
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Buy Credits' }));
    expect(within(sidebar()).getByRole('list', { name: 'Credit packs' })).toBeInTheDocument();
  });

  it("says 'Failed to load credits' when the balance cannot be read", async () => {
    api = setUpGenerator({ credits: 'unknown' });
    api.on('GET', '/api/me', { status: 500, text: 'boom' });
    await renderPage();
    expect(await within(sidebar()).findByText('Failed to load credits')).toBeInTheDocument();
  });
});

describe('image generator: validation', () => {
  it("asks for a prompt: 'Please enter a prompt!'", async () => {
    api = setUpGenerator();
    await renderPage();
    await userEvent.type(promptField(), '   ');
    await userEvent.click(generateButton());
    expect(errorLine()).toHaveTextContent('Please enter a prompt!');
    expect(api.calls('POST', '/api/generations')).toHaveLength(0);
  });

  it('checks in the order of the spec', () => {
    const texts = { enterPrompt: GenerationText.enterPrompt, signIn: GenerationText.signInToGenerateImages, failed: GenerationText.errorGeneratingImage };
    const validateImageRequest = (d: { prompt: string; signedIn: boolean; credits: number | undefined }) =>
      checkGeneration(sdxl, texts, { ...d, cost: 1, options: {}, given: new Set() });
    expect(validateImageRequest({ prompt: ' ', signedIn: false, credits: 0 })).toBe('Please enter a prompt!');
    expect(validateImageRequest({ prompt: 'a cat', signedIn: false, credits: 5 })).toBe('Please sign in to generate images.');
    expect(validateImageRequest({ prompt: 'a cat', signedIn: true, credits: 0 })).toBe('Not enough credits. Required: 1');
    expect(validateImageRequest({ prompt: 'a cat', signedIn: true, credits: undefined })).toBe('Not enough credits. Required: 1');
    expect(validateImageRequest({ prompt: 'a cat', signedIn: true, credits: 1 })).toBeUndefined();
  });

  it("shows the server's refusal as 'Error generating image: {reason}'", async () => {
    api = setUpGenerator();
    api.on('POST', '/api/generations', { status: 402, body: { error: 'Not enough credits. Required: 1', code: 'NOT_ENOUGH_CREDITS' } });
    await renderPage();
    await userEvent.type(promptField(), 'a cat');
    await userEvent.click(generateButton());
    expect(await within(sidebar()).findByText('Error generating image: Not enough credits. Required: 1')).toBeInTheDocument();
    expect(localStorage.getItem(ACTIVE_JOBS_KEY)).toBeNull();
    expect(generateButton()).toBeEnabled();
  });

  it("says 'No prediction ID returned from server.' when the answer has none", async () => {
    api = setUpGenerator();
    api.on('POST', '/api/generations', { status: 200, body: { credits: 9 } });
    await renderPage();
    await userEvent.type(promptField(), 'a cat');
    await userEvent.click(generateButton());
    expect(await within(sidebar()).findByText('No prediction ID returned from server.')).toBeInTheDocument();
  });
});

describe('image generator: a job from start to preview', () => {
  it('charges, shows the job and the overlay, polls every 5 s, then shows the image and the new balance', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    api = setUpGenerator({ credits: 10 });
    let done = false;
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'job-1', credits: 9 } });
    api.on('GET', '/api/check-status/*', () =>
      done
        ? { status: 200, body: { status: 'succeeded', imageUrl: 'https://media.test/new.png', mediaId: 'm-new', value: 9 } }
        : { status: 200, body: { status: 'processing', value: 9 } },
    );
    await renderPage();
    await user.type(promptField(), '  a lighthouse at dusk ');
    await user.click(generateButton());

    expect(await within(await runningJobs()).findByText('Generating: a lighthouse at dusk...')).toBeInTheDocument();
    expect(api.calls('POST', '/api/generations')[0]!.body).toEqual({ model: 'sdxl', prompt: 'a lighthouse at dusk', options: {} });
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent('9');
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Generating...');
    // A running job locks nothing: another can be queued (the server enforces the limit).
    await waitFor(() => expect(generateButton()).toBeEnabled());
    expect(promptField()).toBeEnabled();
    expect(within(await runningJobs()).getByRole('button', { name: 'Cancel a lighthouse at dusk' })).toBeEnabled();
    // Not begun yet: the tile says when it is given up (the model's maximum run time from the start) and refunded.
    const sdxlDeadline = new Date(JSON.parse(localStorage.getItem(ACTIVE_JOBS_KEY)!)[0].createdAt + sdxl.maxRunSeconds * 1000);
    const by = sdxlDeadline.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(within(await runningJobs()).getByText(`If it has not started by ${by}, it is cancelled and refunded.`)).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(ACTIVE_JOBS_KEY)!)).toEqual([
      expect.objectContaining({ predictionId: 'job-1', prompt: 'a lighthouse at dusk', createdAt: expect.any(Number) }),
    ]);

    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(api.calls('GET', '/api/check-status/*')).toHaveLength(1);
    expect(api.calls('GET', '/api/check-status/*')[0]!.path).toBe('/api/check-status/job-1');
    // Rendering: the provider has begun it, so the start deadline is no longer shown.
    await waitFor(() => expect(screen.queryByText(/^If it has not started by /)).not.toBeInTheDocument());

    done = true;
    api.on('GET', '/api/media', { status: 200, body: { items: [mediaItem({ id: 'm-new', prompt: 'a lighthouse at dusk', url: 'https://media.test/new.png' })] } });
    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    const preview = await screen.findByRole('img', { name: 'a lighthouse at dusk' });
    expect(preview).toHaveAttribute('src', 'https://media.test/new.png');
    expect(screen.queryByText(/^Generating: /)).not.toBeInTheDocument();
    expect(screen.queryByText('Generating...')).not.toBeInTheDocument();
    expect(localStorage.getItem(ACTIVE_JOBS_KEY)).toBeNull();
    expect(generateButton()).toBeEnabled();
    // The gallery caught up with the new image.
    expect(await screen.findByRole('article', { name: 'a lighthouse at dusk' })).toBeInTheDocument();
  });

  it("shows a failed job's error and the refunded balance", async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    api = setUpGenerator({ credits: 3 });
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'job-f', credits: 2 } });
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'failed', error: 'Prediction failed: simulated model error', value: 3 } });
    await renderPage();
    await user.type(promptField(), 'a storm [fail]');
    await user.click(generateButton());
    expect(await within(sidebar()).findByTestId('credits-box-balance')).toHaveTextContent('2');
    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(errorLine()).toHaveTextContent('Prediction failed: simulated model error');
    expect(within(sidebar()).getByTestId('credits-box-balance')).toHaveTextContent('3');
    expect(generateButton()).toBeEnabled();
  });

  it('resumes a job stored before a reload: the job line and overlay are back and it is checked at once', async () => {
    api = setUpGenerator({ credits: 9 });
    localStorage.setItem(ACTIVE_JOBS_KEY, JSON.stringify([{ predictionId: 'job-r', prompt: 'resumed prompt', createdAt: Date.now() - 3000, kind: 'image', model: 'stability-ai/sdxl', owner: 'user-1' }]));
    const { jobTracker } = await import('../../web/src/features/generation/jobs');
    jobTracker.syncFromStorage();
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'processing', value: 9 } });
    await renderPage();
    expect(within(await runningJobs()).getByText('Generating: resumed prompt...')).toBeInTheDocument();
    expect(generateButton()).toBeEnabled();
    await waitFor(() => expect(api.calls('GET', '/api/check-status/*').map((r) => r.path)).toEqual(['/api/check-status/job-r']));
  });

  it("reports a refused check as 'Failed to check status: {text}'", async () => {
    api = setUpGenerator({ credits: 9 });
    localStorage.setItem(ACTIVE_JOBS_KEY, JSON.stringify([{ predictionId: 'gone', prompt: 'lost', createdAt: Date.now(), owner: 'user-1' }]));
    const { jobTracker } = await import('../../web/src/features/generation/jobs');
    jobTracker.syncFromStorage();
    api.on('GET', '/api/check-status/*', { status: 404, body: { error: 'Job not found.', code: 'NOT_FOUND' } });
    await renderPage();
    await waitFor(() => expect(errorLine()).toHaveTextContent('Failed to check status: Job not found.'));
    expect(generateButton()).toBeEnabled();
  });
});

describe('image generator: start image', () => {
  it("refuses a picked file over 5 MB: 'Image must be under 5MB.'", async () => {
    api = setUpGenerator();
    await renderPage();
    await userEvent.upload(within(sidebar()).getByLabelText('Start image'), fileOf('big.png', 'image/png', 5_242_881));
    expect(errorLine()).toHaveTextContent('Image must be under 5MB.');
    expect(within(sidebar()).queryByAltText('Start image preview')).not.toBeInTheDocument();
  });

  it("refuses a dropped non-image or oversized file: 'Invalid file type or size. Image must be under 5MB.'", async () => {
    api = setUpGenerator();
    await renderPage();
    const zone = within(sidebar()).getByTestId('start-image-dropzone');
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf('notes.txt', 'text/plain', 10)], types: ['Files'] } });
    expect(errorLine()).toHaveTextContent('Invalid file type or size. Image must be under 5MB.');
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf('huge.jpg', 'image/jpeg', 6_000_000)], types: ['Files'] } });
    expect(errorLine()).toHaveTextContent('Invalid file type or size. Image must be under 5MB.');
    // A file of exactly 5,242,880 bytes is fine.
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf('ok.jpg', 'image/jpeg', 5_242_880)], types: ['Files'] } });
    expect(await within(sidebar()).findByAltText('Start image preview')).toBeInTheDocument();
    expect(errorLine()).toBeEmptyDOMElement();
  });

  it('uploads the start image with a presigned POST and sends its key', async () => {
    api = setUpGenerator();
    api.on('POST', '/api/uploads', { status: 200, body: { url: 'https://s3.test/media', fields: { key: 'users/user-1/images/1.png', Policy: 'p' }, key: 'users/user-1/images/1.png', maxBytes: 5_242_880, maxLongSide: 768 } });
    api.on('POST', '/media', { status: 204 });
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'job-s', credits: 9 } });
    await renderPage();
    await userEvent.upload(within(sidebar()).getByLabelText('Start image'), fileOf('photo.png', 'image/png', 40_000));
    expect(await within(sidebar()).findByText(/768×480 px/)).toBeInTheDocument();
    await userEvent.type(promptField(), 'a lighthouse');
    await userEvent.click(generateButton());
    await within(await runningJobs()).findByText('Generating: a lighthouse...');
    // The purpose names the chosen model (every model that takes a start image is one): the server answers its size limit.
    expect(api.calls('POST', '/api/uploads')[0]!.body).toEqual({ contentType: 'image/png', size: 9, purpose: 'sdxl' });
    const upload = api.calls('POST', '/media')[0]!.body as FormData;
    expect([...upload.keys()]).toEqual(['key', 'Policy', 'file']);
    expect(api.calls('POST', '/api/generations')[0]!.body).toEqual({ model: 'sdxl', prompt: 'a lighthouse', options: {}, inputs: { startImage: 'users/user-1/images/1.png' } });
  });

  it('says why S3 refused the upload', async () => {
    api = setUpGenerator();
    api.on('POST', '/api/uploads', { status: 200, body: { url: 'https://s3.test/media', fields: {}, key: 'k', maxBytes: 5_242_880, maxLongSide: 768 } });
    api.on('POST', '/media', { status: 400, text: '<Error><Code>EntityTooLarge</Code></Error>' });
    await renderPage();
    await userEvent.upload(within(sidebar()).getByLabelText('Start image'), fileOf('photo.png', 'image/png', 40_000));
    await within(sidebar()).findByText(/768×480 px/);
    await userEvent.type(promptField(), 'a lighthouse');
    await userEvent.click(generateButton());
    expect(await within(sidebar()).findByText('Error generating image: Image must be under 5MB.')).toBeInTheDocument();
    expect(api.calls('POST', '/api/generations')).toHaveLength(0);
  });
});

describe('image generator: preview and Previous Images', () => {
  const items = [
    mediaItem({ id: 'new', prompt: 'newest image', createdAt: '2025-06-07T12:00:00.000Z' }),
    mediaItem({ id: 'old', prompt: 'older image', createdAt: '2025-06-06T12:00:00.000Z' }),
  ];

  it("shows 'No image generated yet.' without images, else the newest one", async () => {
    api = setUpGenerator();
    const { unmount } = await renderPage();
    expect(await screen.findByText('No image generated yet.')).toBeInTheDocument();
    unmount();
    api.on('GET', '/api/media', { status: 200, body: { items } });
    await renderPage();
    const preview = await screen.findByRole('img', { name: 'newest image' });
    expect(preview).toHaveAttribute('src', 'https://media.test/new.png');
    expect(screen.getByRole('heading', { name: 'Previous Images' })).toBeInTheDocument();
    expect(api.calls('GET', '/api/media')[0]!.query.get('type')).toBe('image');
  });

  it('opens an older image in the preview and downloads through its presigned link', async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items } });
    await renderPage();
    const older = await screen.findByRole('article', { name: 'older image' });
    await userEvent.click(within(older).getByRole('button', { name: 'Show in preview: older image' }));
    expect(screen.getByRole('img', { name: 'older image' })).toHaveAttribute('src', 'https://media.test/old.png');
    expect(within(older).getByRole('link', { name: 'Download image: older image' })).toHaveAttribute('href', 'https://media.test/old.png?download');
  });

  it("says 'Prompt source is missing.' when an item has no download link", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items: [mediaItem({ id: 'x', prompt: 'no source', downloadUrl: '' })] } });
    await renderPage();
    const card = await screen.findByRole('article', { name: 'no source' });
    await userEvent.click(within(card).getByRole('button', { name: 'Download image: no source' }));
    expect(await screen.findByText('Prompt source is missing.')).toBeInTheDocument();
  });

  it("says 'Failed to load previous images' when the list cannot be read", async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 500, text: 'Internal Server Error' });
    await renderPage();
    expect(await screen.findByText('Failed to load previous images')).toBeInTheDocument();
  });

  it('deletes after confirmation, and puts the image back with the reason when deleting fails', async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items } });
    api.on('DELETE', '/api/media/old', { status: 500, body: { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' } });
    api.on('DELETE', '/api/media/new', { status: 204 });
    await renderPage();
    const older = await screen.findByRole('article', { name: 'older image' });
    await userEvent.click(within(older).getByRole('button', { name: 'Delete image: older image' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this image?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete prompt: Something went wrong on our side. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'older image' })).toBeInTheDocument();

    await userEvent.click(within(screen.getByRole('article', { name: 'newest image' })).getByRole('button', { name: 'Delete image: newest image' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'newest image' })).not.toBeInTheDocument());
    expect(api.calls('DELETE', '/api/media/new')).toHaveLength(1);
    // Keyboard focus stays in the gallery instead of falling back to the page.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Previous Images' })).toHaveFocus());
    // The preview falls back to the newest image left.
    expect(screen.getByRole('img', { name: 'older image' })).toBeInTheDocument();
  });

  it('cancelling the confirmation deletes nothing', async () => {
    api = setUpGenerator();
    api.on('GET', '/api/media', { status: 200, body: { items } });
    await renderPage();
    const older = await screen.findByRole('article', { name: 'older image' });
    await userEvent.click(within(older).getByRole('button', { name: 'Delete image: older image' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE', '/api/media/old')).toHaveLength(0);
    expect(screen.getByRole('article', { name: 'older image' })).toBeInTheDocument();
  });
});

describe('image generator: how a job ends is told as it is', () => {
  it('a batch that delivered three of four images shows them, and says above the preview how many failed and were refunded', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    api = setUpGenerator({ credits: 10 });
    const note = Messages.batchPartlyFailed(1, 4, 1);
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'job-b', credits: 6 } });
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'succeeded', imageUrl: 'https://media.test/b0.png', mediaId: 'b0', error: note, value: 7 } });
    api.on('GET', '/api/media', {
      status: 200,
      body: { items: ['b0', 'b1', 'b3'].map((id) => mediaItem({ id, prompt: 'four kites', url: `https://media.test/${id}.png` })) },
    });
    await renderPage();
    await user.type(promptField(), 'four kites');
    await user.click(generateButton());
    await act(() => jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(await screen.findByTestId('preview-canceled')).toHaveTextContent(note);
    expect(screen.getAllByRole('img', { name: 'four kites' })[0]).toHaveAttribute('src', 'https://media.test/b0.png');
    expect(screen.queryByRole('region', { name: 'This generation did not finish' })).not.toBeInTheDocument();
    expect(await screen.findAllByRole('article', { name: 'four kites' })).toHaveLength(3);
  });

  it('a cancel the user chose reads as a cancel beside the preview, not as a failure', async () => {
    api = setUpGenerator({ credits: 10 });
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'job-c', credits: 9 } });
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'starting', value: 9 } });
    api.on('POST', '/api/jobs/job-c/cancel', { status: 200, body: { credits: 10, error: 'The generation was canceled. 1 credit refunded.' } });
    await renderPage();
    await userEvent.type(promptField(), 'a kite');
    await userEvent.click(generateButton());
    await userEvent.click(within(await runningJobs()).getByRole('button', { name: 'Cancel a kite' }));
    expect(await screen.findByTestId('preview-canceled')).toHaveTextContent('The generation was canceled. 1 credit refunded.');
    expect(screen.queryByRole('region', { name: 'This generation did not finish' })).not.toBeInTheDocument();
    expect(within(sidebar()).getAllByRole('alert')[0]).toHaveTextContent(/^$/);
  });

  it('a job that ends while the tab is hidden puts it in the tab title until the tab is seen', async () => {
    api = setUpGenerator({ credits: 10 });
    api.on('POST', '/api/generations', { status: 200, body: { predictionId: 'job-h', credits: 9 } });
    api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'starting', value: 9 } });
    await renderPage();
    document.title = 'Image Generator | Framewright';
    await userEvent.type(promptField(), 'a hidden harbour');
    await userEvent.click(generateButton());
    await runningJobs();
    const visibility = jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const { jobTracker } = await import('../../web/src/features/generation/jobs');
    act(() => jobTracker.applyPushed({ predictionId: 'job-h', status: 'succeeded', kind: 'image', model: 'stability-ai/sdxl', prompt: 'a hidden harbour', createdAt: Date.now(), url: 'https://media.test/h.png', mediaId: 'm-h' }));
    expect(document.title).toBe('✓ Image ready · Image Generator | Framewright');
    visibility.mockReturnValue('visible');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(document.title).toBe('Image Generator | Framewright');
    visibility.mockRestore();
  });
});
