/**
 * /video-generator: the model chooser. A card per video model of the registry: the available ones link to
 * /video-generator/{id} with their lowest price; an upcoming one is shown but cannot be chosen.
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { VIDEO_GENERATORS, type ModelView } from '../../../../contract/models/view';
import { cx } from '../../lib/cx';
import { PaymentReturnNotice } from '../payments';
import { choiceText, credits } from '../marketing';

/** The card's facts from the registry view: its simple choices' values, and whether a start image is taken. */
function facts(model: ModelView): string[] {
  const out = model.options.filter((o) => o.kind === 'choice' && !o.advanced && o.id !== 'aspectRatio').map((o) => choiceText(o));
  const start = model.inputs.images.find((i) => i.id === 'startImage');
  if (start) out.push(start.required ? 'Start image required' : 'Optional start image');
  return out;
}

/** The lowest price of any order of this model. */
const lowest = (model: ModelView) => Math.min(...(model.prices?.costs.flat().filter((c): c is number => c !== null) ?? []));

function ModelCard({ model }: { model: ModelView }) {
  const titleId = useId();
  const from = model.prices ? lowest(model) : undefined;
  const body = (
    <>
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-lg font-semibold text-ink">
          {model.name}
        </h2>
        {model.upcoming ? (
          <span className="shrink-0 rounded-pill border border-line bg-surface-raised px-2.5 py-0.5 text-xs font-medium text-ink-muted">Upcoming</span>
        ) : (
          from !== undefined && (
            <span className="shrink-0 rounded-pill bg-brand-soft px-2.5 py-0.5 text-xs font-medium text-brand-ink">From {credits(from)}</span>
          )
        )}
      </div>
      <p className="mt-2 text-sm text-ink-muted">{model.upcoming ? 'Coming soon. It cannot be chosen yet.' : model.tagline}</p>
      {!model.upcoming && (
        <ul className="mt-4 flex flex-wrap gap-2 text-xs text-ink-subtle">
          {facts(model).map((f) => (
            <li key={f} className="rounded-pill border border-line px-2.5 py-0.5">
              {f}
            </li>
          ))}
        </ul>
      )}
      {!model.upcoming && (
        <span className="mt-6 inline-flex items-center gap-1 text-sm font-medium text-brand-ink" aria-hidden="true">
          Open generator →
        </span>
      )}
    </>
  );
  const frame = 'flex h-full flex-col rounded-card border p-6 shadow-card transition-colors';
  if (model.upcoming) {
    return (
      <article aria-labelledby={titleId} aria-disabled="true" className={cx(frame, 'border-dashed border-line bg-surface opacity-70')}>
        {body}
      </article>
    );
  }
  return (
    <Link
      to={`/video-generator/${model.id}`}
      aria-labelledby={titleId}
      className={cx(frame, 'border-line bg-surface hover:border-brand/60 hover:bg-surface-raised')}
    >
      {body}
    </Link>
  );
}

function VideoChooserPage() {
  return (
    <section className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 sm:px-6 lg:py-10">
      <title>Video Generator · Framewright</title>
      <div className="mb-6 empty:hidden">
        <PaymentReturnNotice />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Video Generator</h1>
      <p className="mt-1 max-w-2xl text-sm text-ink-muted">Choose a model. Prices are per clip and shown before you generate.</p>
      <ul aria-label="Video models" className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {VIDEO_GENERATORS.map((model) => (
          <li key={model.id}>
            <ModelCard model={model} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default VideoChooserPage;
