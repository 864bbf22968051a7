/**
 * /video-generator: the model chooser. A card per video family from the catalog: the available
 * ones link to /video-generator/{id}; an upcoming one is shown but cannot be chosen.
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { VIDEO_FAMILIES, type VideoFamily } from '../../../../contract/catalog';
import { modelBySlug } from '../../../../contract/models';
import { cx } from '../../lib/cx';
import { PaymentReturnNotice } from '../payments';
import { credits, familyCostRange } from '../marketing';

function facts(family: VideoFamily): string[] {
  const out: string[] = [];
  if (family.durations.length) out.push(`${family.durations.join(' or ')} s clips`);
  if (family.qualities.length) out.push(family.qualities.join(' · '));
  else if (family.id === 'wan') out.push('480p');
  const start = modelBySlug(family.id)?.inputs.images.startImage;
  if (start?.required) out.push('Start image required');
  else if (start) out.push(family.id === 'wan' ? 'Text or start image' : 'Optional start image');
  return out;
}

function FamilyCard({ family }: { family: VideoFamily }) {
  const titleId = useId();
  const from = family.upcoming ? undefined : familyCostRange(family).min;
  const body = (
    <>
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-lg font-semibold text-ink">
          {family.name}
        </h2>
        {family.upcoming ? (
          <span className="shrink-0 rounded-pill border border-line bg-surface-raised px-2.5 py-0.5 text-xs font-medium text-ink-muted">Upcoming</span>
        ) : (
          from !== undefined && (
            <span className="shrink-0 rounded-pill bg-brand-soft px-2.5 py-0.5 text-xs font-medium text-brand-ink">From {credits(from)}</span>
          )
        )}
      </div>
      <p className="mt-2 text-sm text-ink-muted">{family.upcoming ? 'Coming soon. It cannot be chosen yet.' : family.tagline}</p>
      {!family.upcoming && (
        <ul className="mt-4 flex flex-wrap gap-2 text-xs text-ink-subtle">
          {facts(family).map((f) => (
            <li key={f} className="rounded-pill border border-line px-2.5 py-0.5">
              {f}
            </li>
          ))}
        </ul>
      )}
      {!family.upcoming && (
        <span className="mt-6 inline-flex items-center gap-1 text-sm font-medium text-brand-ink" aria-hidden="true">
          Open generator →
        </span>
      )}
    </>
  );
  const frame = 'flex h-full flex-col rounded-card border p-6 shadow-card transition-colors';
  if (family.upcoming) {
    return (
      <article aria-labelledby={titleId} aria-disabled="true" className={cx(frame, 'border-dashed border-line bg-surface opacity-70')}>
        {body}
      </article>
    );
  }
  return (
    <Link
      to={`/video-generator/${family.id}`}
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
        {VIDEO_FAMILIES.map((family) => (
          <li key={family.id}>
            <FamilyCard family={family} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default VideoChooserPage;
