/**
 * What the viewer can do with one of the caller's images through POST /api/generations: edit it by prompt, upscale it
 * (2x or 4x) or make variations of it. Each button shows its price; a started job is followed like any other (the
 * running-job tiles), and its result records this image as its source.
 */
import { useEffect, useId, useState } from 'react';
import { modelBySlug, modelOfReplicate } from '../../../../contract/models';
import { priceOf } from '../../../../contract/models/options';
import { Button } from '../../components/button';
import { reasonOf } from './generation-messages';
import type { MediaItemView } from './media-api';
import { useModels, type ModelEntry } from './models-api';
import { startGeneration } from './start-generation';

const creditsWord = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/**
 * What a variation of this image costs: its own model run again with its settings and one image (the server prices
 * it the same way). Undefined when its model cannot make it again (an edit, an upscale, a video model).
 */
export function variationPrice(item: MediaItemView): number | undefined {
  const def = item.type === 'image' ? modelOfReplicate(item.model) : undefined;
  if (!def || def.operation !== 'generate' || def.rerun) return undefined;
  const settings: Record<string, string | number> = {};
  for (const [id, o] of Object.entries(def.options)) {
    const v = item.options[id];
    if (o.kind !== 'seed' && v !== undefined && typeof v !== 'boolean') settings[id] = v;
  }
  if (def.options.count) settings.count = 1;
  const price = priceOf(def, settings);
  return price.ok ? price.cost : undefined;
}

/** The Replicate model a job of this operation runs (the job tiles name it); variations run the source's. */
const replicateIdOf = (slug: string, item: MediaItemView) => modelBySlug(slug)?.models[0]?.id ?? item.model;

export function ResultOperations({ item, onError }: { item: MediaItemView; onError: (message: string) => void }) {
  const models = useModels();
  const [editPrompt, setEditPrompt] = useState('');
  const [busy, setBusy] = useState<string>();
  const [started, setStarted] = useState('');
  const promptId = useId();
  useEffect(() => {
    setEditPrompt('');
    setStarted('');
  }, [item.id]);
  if (item.type !== 'image') return null;

  const edit: ModelEntry | undefined = models?.get('edit');
  const upscale = models?.get('upscale');
  const variations = models?.get('variations');
  const variationCost = variationPrice(item);

  const run = async (key: string, slug: string, cost: number | undefined, what: string, options?: Record<string, string | number>, prompt?: string) => {
    setBusy(key);
    setStarted('');
    onError('');
    try {
      const failure = await startGeneration(
        { route: 'generations', body: { model: slug, inputs: { image: item.id }, ...(prompt ? { prompt } : {}), ...(options ? { options } : {}) } },
        { prompt: prompt ?? item.prompt, kind: 'image', model: replicateIdOf(slug, item), ...(cost !== undefined ? { cost } : {}) },
      );
      if (failure) onError(failure);
      else {
        setStarted(`${what} started: it shows with your running jobs and joins your images when it is done.`);
        if (slug === 'edit') setEditPrompt('');
      }
    } catch (err) {
      onError(`${what} could not start: ${reasonOf(err)}`);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section aria-label="Change this image" className="flex w-full flex-wrap items-end gap-2" data-testid="result-operations">
      {edit && edit.price !== null && (
        <form
          className="flex w-full flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!editPrompt.trim()) onError('Say what to change in the picture.');
            else void run('edit', 'edit', edit.price ?? undefined, 'The edit', undefined, editPrompt.trim());
          }}
        >
          <label htmlFor={promptId} className="w-full text-sm text-ink">
            What to change
          </label>
          <input
            id={promptId}
            value={editPrompt}
            onChange={(e) => setEditPrompt(e.target.value)}
            placeholder="Make the sky stormy"
            className="min-w-0 flex-1 basis-40 rounded-control border border-line bg-surface px-2 py-1 text-sm text-ink"
          />
          <Button type="submit" size="sm" variant="secondary" loading={busy === 'edit'} disabled={busy !== undefined}>
            {`Edit · ${creditsWord(edit.price)}`}
          </Button>
        </form>
      )}
      <div className="flex flex-wrap gap-2">
        {upscale &&
          upscale.price !== null &&
          [2, 4].map((scale) => (
            <Button
              key={scale}
              size="sm"
              variant="secondary"
              loading={busy === `upscale-${scale}`}
              disabled={busy !== undefined}
              onClick={() => void run(`upscale-${scale}`, 'upscale', upscale.price ?? undefined, 'The upscale', { scale })}
            >
              {`Upscale ${scale}x · ${creditsWord(upscale.price!)}`}
            </Button>
          ))}
        {variations && variationCost !== undefined && (
          <Button
            size="sm"
            variant="secondary"
            loading={busy === 'variations'}
            disabled={busy !== undefined}
            onClick={() => void run('variations', 'variations', variationCost, 'The variation')}
          >
            {`Variation · ${creditsWord(variationCost)}`}
          </Button>
        )}
      </div>
      {started && (
        <p role="status" className="text-sm text-ink-muted">
          {started}
        </p>
      )}
    </section>
  );
}
