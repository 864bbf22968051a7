import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { modelsView } from '../../contract/models/view';
import { FLUX_KONTEXT_MODEL } from '../../contract/models/edit';
import { REAL_ESRGAN_MODEL } from '../../contract/models/upscale';
import ImageGeneratorPage from '../../web/src/features/image-generator/image-generator-page';
import { resetModels } from '../../web/src/features/generation/models-api';
import { mediaItem, renderLoaded, setUpGenerator, tearDownGenerator, type FakeApi } from './helpers/generator-env';

let api: FakeApi;

const source = mediaItem({ id: 'src', prompt: 'a lighthouse at dusk', model: 'stability-ai/sdxl', options: { seed: 7 } });

function setUp(items = [source]) {
  resetModels();
  api = setUpGenerator({ credits: 10 });
  api.on('GET', '/api/media', { status: 200, body: { items } });
  // The registry's own answer, as the server builds it.
  api.on('GET', '/api/models', { status: 200, body: modelsView() });
  api.on('GET', '/api/check-status/*', { status: 200, body: { status: 'processing', value: 8 } });
  let n = 0;
  api.on('POST', '/api/generations', () => ({ status: 200, body: { predictionId: `job-${++n}`, credits: 8 } }));
}

async function openViewer(prompt: string) {
  await renderLoaded('/generator', <ImageGeneratorPage />);
  await userEvent.click(screen.getByRole('button', { name: `Open full size: ${prompt}` }));
  return screen.findByTestId('lightbox');
}

afterEach(() => tearDownGenerator());

describe('the viewer: edit, upscale and variations of an image', () => {
  it('shows each price from GET /api/models and starts an edit with the shown image, followed as a running job', async () => {
    setUp();
    const box = await openViewer('a lighthouse at dusk');
    // Said where people look: the viewer names the output as AI-generated, with its model and day.
    const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse(source.createdAt));
    expect(within(box).getByTestId('lightbox-ai-label')).toHaveTextContent(`AI-generated with SDXL on ${day}`);
    const ops = within(box).getByRole('region', { name: 'Change this image' });
    expect(await within(ops).findByRole('button', { name: 'Edit · 2 credits' })).toBeInTheDocument();
    expect(within(ops).getByRole('button', { name: 'Upscale 2x · 1 credit' })).toBeInTheDocument();
    expect(within(ops).getByRole('button', { name: 'Upscale 4x · 1 credit' })).toBeInTheDocument();
    expect(within(ops).getByRole('button', { name: 'Variation · 1 credit' })).toBeInTheDocument();

    // No prompt: said, nothing sent.
    await userEvent.click(within(ops).getByRole('button', { name: 'Edit · 2 credits' }));
    expect(within(box).getByRole('alert')).toHaveTextContent('Say what to change in the picture.');
    expect(api.calls('POST', '/api/generations')).toHaveLength(0);

    await userEvent.type(within(ops).getByLabelText('What to change'), 'make the sky stormy');
    await userEvent.click(within(ops).getByRole('button', { name: 'Edit · 2 credits' }));
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(1));
    expect(api.calls('POST', '/api/generations')[0]!.body).toEqual({ model: 'edit', prompt: 'make the sky stormy', inputs: { image: 'src' } });
    expect(await within(ops).findByRole('status')).toHaveTextContent('The edit started');
    expect(within(screen.getByRole('region', { name: 'Running', hidden: true })).getByRole('progressbar', { name: 'Progress of make the sky stormy', hidden: true })).toBeInTheDocument();
  });

  it('labels a result with the model that made its file: an upscale is "Upscaled with Real-ESRGAN", an edit "AI-edited with FLUX.1 Kontext [pro]"', async () => {
    const upscaled = mediaItem({ id: 'up', prompt: 'a harbour at noon', model: REAL_ESRGAN_MODEL.id, options: { scale: 2 } });
    const edited = mediaItem({ id: 'ed', prompt: 'a harbour at night', model: FLUX_KONTEXT_MODEL.id, options: { seed: 3 } });
    setUp([upscaled, edited]);
    const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse(upscaled.createdAt));
    const box = await openViewer('a harbour at noon');
    expect(within(box).getByTestId('lightbox-ai-label')).toHaveTextContent(`Upscaled with Real-ESRGAN on ${day}`);
    expect(within(box).getByTestId('lightbox-ai-label')).not.toHaveTextContent('Upscale on');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('lightbox')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Open full size: a harbour at night' }));
    expect(within(await screen.findByTestId('lightbox')).getByTestId('lightbox-ai-label')).toHaveTextContent(`AI-edited with FLUX.1 Kontext [pro] on ${day}`);
  });

  it('upscales 4x and makes a variation of the shown image', async () => {
    setUp();
    const box = await openViewer('a lighthouse at dusk');
    const ops = within(box).getByRole('region', { name: 'Change this image' });
    await userEvent.click(await within(ops).findByRole('button', { name: 'Upscale 4x · 1 credit' }));
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(1));
    expect(api.calls('POST', '/api/generations')[0]!.body).toEqual({ model: 'upscale', options: { scale: 4 }, inputs: { image: 'src' } });
    await userEvent.click(within(ops).getByRole('button', { name: 'Variation · 1 credit' }));
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(2));
    expect(api.calls('POST', '/api/generations')[1]!.body).toEqual({ model: 'variations', inputs: { image: 'src' } });
  });

  it('says what a result was made from, and opens the source', async () => {
    const edited = mediaItem({ id: 'ed', prompt: 'stormy lighthouse', model: FLUX_KONTEXT_MODEL.id, options: { seed: 3, sourceMediaId: 'src' } });
    const upscaled = mediaItem({ id: 'up', prompt: 'a lighthouse at dusk', model: REAL_ESRGAN_MODEL.id, options: { scale: 2, sourceMediaId: 'deleted-source' } });
    setUp([edited, upscaled, source]);
    // The upscale's source is not listed, and reading it answers 404: it was deleted.
    let box = await openViewer('stormy lighthouse');
    expect(within(box).getByText('Edited from')).toBeInTheDocument();
    // An edit cannot be made again from its settings: no variation offered.
    await within(box).findByRole('button', { name: /^Upscale 2x/ });
    expect(within(box).queryByRole('button', { name: /^Variation/ })).not.toBeInTheDocument();
    await userEvent.click(within(within(box).getByTestId('lightbox-source')).getByRole('button', { name: 'a lighthouse at dusk' }));
    box = screen.getByTestId('lightbox');
    expect(within(box).getByTestId('lightbox-prompt')).toHaveTextContent('a lighthouse at dusk');
    expect(within(box).queryByTestId('lightbox-source')).not.toBeInTheDocument();
    await userEvent.click(within(box).getByRole('button', { name: 'Previous' }));
    box = screen.getByTestId('lightbox');
    expect(within(box).getByText('Upscaled from')).toBeInTheDocument();
    expect(await within(box).findByText('an image you have deleted')).toBeInTheDocument();
    expect(within(box).getByText('Scale: 2x')).toBeInTheDocument();
  });
});

describe('the image generator: FLUX Fast and FLUX 1.1 Pro', () => {
  it('offers each image model with its registry price and starts FLUX through POST /api/generations', async () => {
    setUp([]);
    await renderLoaded('/generator', <ImageGeneratorPage />);
    const sidebar = screen.getByRole('complementary', { name: 'Image settings' });
    const picker = within(sidebar).getByLabelText('Model');
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['SDXL · 1 credit', 'FLUX Fast · 1 credit', 'FLUX 1.1 Pro · 2 credits']);
    expect(within(sidebar).getByLabelText('Start image')).toBeInTheDocument();
    await userEvent.selectOptions(picker, 'flux-pro');
    // FLUX takes no start image; its price is on the button.
    expect(within(sidebar).queryByLabelText('Start image')).not.toBeInTheDocument();
    await userEvent.type(within(sidebar).getByLabelText('Prompt'), 'a fox in the snow');
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Generate Image (2 Credits)' }));
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(1));
    expect(api.calls('POST', '/api/generations')[0]!.body).toEqual({ model: 'flux-pro', prompt: 'a fox in the snow', options: {} });
    expect(api.calls('POST', '/api/generate-image')).toHaveLength(0);
    expect(await screen.findByRole('progressbar', { name: 'Progress of a fox in the snow' })).toBeInTheDocument();
  });

  it('starts SDXL through POST /api/generations too, not the spec route', async () => {
    setUp([]);
    await renderLoaded('/generator', <ImageGeneratorPage />);
    const sidebar = screen.getByRole('complementary', { name: 'Image settings' });
    await userEvent.type(within(sidebar).getByLabelText('Prompt'), 'a fox');
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Generate Image (1 Credit)' }));
    await waitFor(() => expect(api.calls('POST', '/api/generations')).toHaveLength(1));
    expect(api.calls('POST', '/api/generations')[0]!.body).toEqual({ model: 'sdxl', prompt: 'a fox', options: {} });
    expect(api.calls('POST', '/api/generate-image')).toHaveLength(0);
  });
});

describe("the image generator: 'Use settings' of a FLUX result", () => {
  it('reopens its model with its options', async () => {
    const flux = mediaItem({ id: 'f1', prompt: 'a fox at dawn', model: 'black-forest-labs/flux-1.1-pro', options: { aspectRatio: '16:9', seed: 5 } });
    setUp([flux]);
    api.on('GET', '/api/media/f1', { status: 200, body: flux });
    const router = createMemoryRouter([{ path: '/generator', element: <ImageGeneratorPage /> }], { initialEntries: ['/generator?reuse=f1&use=settings'] });
    render(<RouterProvider router={router} />);
    const sidebar = await screen.findByRole('complementary', { name: 'Image settings' });
    await waitFor(() => expect(within(sidebar).getByLabelText('Model')).toHaveValue('flux-pro'));
    expect(within(sidebar).getByLabelText('Aspect ratio')).toHaveValue('16:9');
    expect(within(sidebar).getByLabelText('Prompt')).toHaveValue('a fox at dawn');
  });
});
