import { ButtonLink } from '../../components/button-link';
import { IMAGE_GENERATORS, OPERATIONS, VIDEO_GENERATORS, type ModelView } from '../../../../contract/models/view';
import { PageIntro, Section } from './page-intro';
import { PriceTable } from './price-table';
import { choiceText, listOf } from './price-text';

/** What a card states about a model, all from its registry view: its simple choices, its pictures, its wait. */
function facts(model: ModelView): Array<[string, string]> {
  const out: Array<[string, string]> = model.options
    .filter((o) => o.kind === 'choice' && !o.advanced)
    .map((o) => [o.label, choiceText(o)]);
  for (const image of model.inputs.images) out.push([image.label, image.required ? 'Required' : 'Optional']);
  const minutes = Math.round(model.typicalSeconds / 60);
  out.push(['Typical wait', minutes >= 1 ? `about ${minutes} min` : `about ${model.typicalSeconds} s`]);
  return out;
}

function ModelCard({ model }: { model: ModelView }) {
  return (
    <li data-testid={`model-${model.id}`} className="flex flex-col rounded-card border border-line bg-surface p-6 shadow-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-xl font-semibold text-ink">{model.name}</h3>
        {model.upcoming && (
          <span className="shrink-0 rounded-pill border border-line bg-surface-raised px-2.5 py-0.5 text-xs font-medium text-ink-muted">Upcoming</span>
        )}
      </div>
      <p className="mt-3 text-ink-muted">{model.tagline}</p>
      <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-ink-muted">
        {model.strengths.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      {!model.upcoming && (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {facts(model).map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-ink-subtle">{term}</dt>
              <dd className="text-ink">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {model.prices && (
        <PriceTable model={model} prices={model.prices} caption={`${model.name} prices in credits`} captionClassName="sr-only" className="mt-4" />
      )}
      {model.runsOn.length > 0 && <p className="mt-4 text-xs break-all text-ink-subtle">Runs on {model.runsOn.join(' and ')}</p>}
    </li>
  );
}

/** The registry's entries in three groups: video models, image models, and what works on a result. */
const GROUPS: Array<{ id: string; title: string; lead?: string; models: readonly ModelView[] }> = [
  { id: 'video-models', title: 'Video models', models: VIDEO_GENERATORS },
  { id: 'image-models', title: 'Image models', lead: 'Every account can make stills too, and they make great start frames for video.', models: IMAGE_GENERATORS },
  { id: 'operations', title: 'Work on your results', lead: 'From the viewer, on any image you made.', models: OPERATIONS },
];

export function FeaturesPage() {
  return (
    <>
      <PageIntro
        eyebrow="Features"
        title="The models behind Framewright"
        description={`Compare Framewright's models: ${listOf(VIDEO_GENERATORS.map((m) => m.name))} for video, ${listOf(IMAGE_GENERATORS.map((m) => m.name))} for images. Prices in credits for every option.`}
      >
        <p>
          One studio, several engines. Each model has its own look, speed and price, and you choose per result. Prices below are
          in credits, straight from the same table we charge from.
        </p>
      </PageIntro>

      {GROUPS.map((group) => (
        <Section key={group.id} id={group.id} title={group.title} lead={group.lead}>
          <ul className="grid gap-6 lg:grid-cols-3">
            {group.models.map((model) => (
              <ModelCard key={model.id} model={model} />
            ))}
          </ul>
        </Section>
      ))}

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
