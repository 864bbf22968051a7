import { ButtonLink } from '../../components/button-link';
import { IMAGE_MODEL, PIXVERSE, WAN_I2V, WAN_T2V } from '../../../../contract/catalog';
import { modelBySlug } from '../../../../contract/models';
import { KLING_MODEL } from '../../../../contract/models/kling';
import { PageIntro, Section } from './page-intro';
import { IMAGE_COST, credits, listDurations, videoFamily, type VideoFamily } from './prices';
import { VideoPriceTable } from './video-price-table';

interface ModelCard {
  family: VideoFamily;
  heading: string;
  modelIds: readonly string[];
  strengths: string[];
}

const CARDS: ModelCard[] = [
  {
    family: videoFamily('wan'),
    heading: 'Wan 2.1 i2v',
    modelIds: [WAN_I2V, WAN_T2V],
    strengths: [
      'Image-to-video: give it a start frame and it animates your own composition, colours and characters.',
      'Text-to-video when you have no image: the scene is built from the prompt alone.',
      '480p output, well suited to previews, storyboards and social posts.',
    ],
  },
  {
    family: videoFamily('pixverse'),
    heading: 'Pixverse',
    modelIds: [PIXVERSE],
    strengths: [
      'Sharper motion and detail, with a choice of 540p, 720p (the default) or 1080p.',
      'Works from a prompt, or from a start image when you want a specific first frame.',
      '1080p is offered for 5-second clips; 540p and 720p also come as 8-second clips.',
    ],
  },
  {
    family: videoFamily('kling'),
    heading: 'Kling 2.1',
    modelIds: [KLING_MODEL.id],
    strengths: [
      'Cinematic camera work from a start frame you give it.',
      'In 1080p it can also end on a frame you choose, so a clip lands exactly where you want it.',
      '720p or 1080p, 5 or 10 seconds.',
    ],
  },
];

/** Whether a family takes a start image, as its registry entry declares it. */
function startImageLabel(family: VideoFamily): string {
  const startImage = modelBySlug(family.id)?.inputs.images.startImage;
  if (!startImage) return 'No';
  return startImage.required ? 'Required' : 'Optional';
}

export function FeaturesPage() {
  return (
    <>
      <PageIntro
        eyebrow="Features"
        title="The models behind Framewright"
        description="Compare Framewright's video models: Wan 2.1 image-to-video, Pixverse v4.5 up to 1080p, and Kling 2.1 with an end frame. Prices in credits for every option."
      >
        <p>
          One studio, several engines. Each model has its own look, speed and price, and you choose per clip. Prices below are
          in credits, straight from the same table we charge from.
        </p>
      </PageIntro>

      <Section id="video-models" title="Video models">
        <ul className="grid gap-6 lg:grid-cols-3">
          {CARDS.map(({ family, heading, modelIds, strengths }) => (
            <li key={family.id} className="flex flex-col rounded-card border border-line bg-surface p-6 shadow-card">
              <h3 className="text-xl font-semibold text-ink">{heading}</h3>
              <p className="mt-1 text-sm text-ink-subtle">{family.name}</p>
              <p className="mt-3 text-ink-muted">{family.tagline}</p>
              <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-ink-muted">
                {strengths.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-ink-subtle">Durations</dt>
                <dd className="text-ink">{listDurations(family.durations)}</dd>
                <dt className="text-ink-subtle">Start image</dt>
                <dd className="text-ink">{startImageLabel(family)}</dd>
                <dt className="text-ink-subtle">Typical wait</dt>
                <dd className="text-ink">about {Math.round(family.typicalSeconds / 60) || 1} min</dd>
              </dl>
              <VideoPriceTable
                family={family}
                caption={`${family.name} prices in credits`}
                captionClassName="sr-only"
                durationLabel={(d) => `${d} s`}
                className="mt-4"
              />
              <p className="mt-4 text-xs break-all text-ink-subtle">Runs on {modelIds.join(' and ')}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="image-model" title="Images" lead="Every account can make stills too, and they make great start frames for video.">
        <div className="rounded-card border border-line bg-surface p-6">
          <h3 className="text-xl font-semibold text-ink">{IMAGE_MODEL.label}</h3>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-subtle">Size</dt>
            <dd className="text-ink">
              {IMAGE_MODEL.input.width} × {IMAGE_MODEL.input.height} pixels
            </dd>
            <dt className="text-ink-subtle">Price</dt>
            <dd className="text-ink">{credits(IMAGE_COST)} per image</dd>
            <dt className="text-ink-subtle">Start image</dt>
            <dd className="text-ink">Optional: restyle a picture of your own</dd>
          </dl>
        </div>
      </Section>

      <Section id="studio" title="Built around your workflow">
        <ul className="grid gap-6 md:grid-cols-3">
          {[
            ['Jobs that keep running', 'Close the tab while a video renders: the job carries on, and the result is waiting in your account.'],
            ['Your library', 'Every image and video you make is stored with its prompt, ready to preview, download or delete.'],
            ['Fair by design', 'Credits are taken when a job starts and returned automatically if the model fails.'],
          ].map(([title, body]) => (
            <li key={title} className="rounded-card border border-line bg-surface p-6">
              <h3 className="font-semibold text-ink">{title}</h3>
              <p className="mt-2 text-sm text-ink-muted">{body}</p>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-wrap gap-3">
          <ButtonLink to="/generator">Start Creating</ButtonLink>
          <ButtonLink to="/pricing" variant="secondary">
            See pricing
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}

export default FeaturesPage;
