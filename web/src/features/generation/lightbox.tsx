/**
 * A result full size in an accessible dialog (the Modal: focus trapped, Escape closes and focus returns to the card
 * that opened it); Left and Right move through the list it was opened from. It shows what made the result (prompt,
 * model, options, seed, date, credits spent, the result it was made from) and every action on one bar that wraps:
 * download, favourite, share, collections, edit, upscale, variations, use as start image, reuse, delete.
 */
import { useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import { modelOfReplicate } from '../../../../contract/models';
import { cx } from '../../lib/cx';
import { Button } from '../../components/button';
import { ButtonLink } from '../../components/button-link';
import { Modal } from '../../components/modal';
import { AiGeneratedLabel } from '../../components/ai-generated-label';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format-date-time';
import { GenerationText, reasonOf } from './generation-messages';
import { AddToCollection, RemoveFromCollection } from './collections';
import { optionsIgnoredWithImage } from './ignored-options';
import { getMediaItem, type CollectionView, type MediaItemView } from './media-api';
import { DownloadAction } from './media-card';
import { seedLabel } from './media-labels';
import { shareItem, toggleFavorite, unshareItem } from './media-list';
import { animateUrl, madeWith, modelName, reuseUrl } from './result-links';
import { ResultOperations } from './result-operations';
import { durationLabel, FavoriteButton } from './result-parts';
import { MEDIA_CROSS_ORIGIN } from '../../lib/media-cross-origin';

export interface LightboxProps {
  items: readonly MediaItemView[];
  /** The open item's id; undefined: closed. */
  openId: string | undefined;
  onOpen: (id: string | undefined) => void;
  onDelete: (item: MediaItemView) => void;
  /** The collection the list it was opened from is filtered by: "Remove from <name>" takes this result out. */
  collection?: CollectionView;
}

/** Options worth showing, in words: "Aspect ratio: 16:9". The seed has its own line. */
/**
 * How it was made, in the words the generator offered: each option under its registry label and value label
 * ("Aspect ratio: 16:9", "Style: Anime"). Size, length, seed and the start image have their own lines; the image
 * count says nothing about this one image.
 */
function optionLines(item: MediaItemView): string[] {
  const model = modelOfReplicate(item.model);
  const own = new Set(['seed', 'width', 'height', 'count', 'startImage', 'startMediaId', 'sourceMediaId', 'duration']);
  // What the model did not use (Wan's aspect ratio with a start image) is not claimed for the result.
  if (model && item.options.startImage === true) for (const id of optionsIgnoredWithImage(model)) own.add(id);
  return Object.entries(item.options)
    .filter(([k, v]) => !own.has(k) && v !== '' && v !== false && v !== 'None')
    .map(([k, v]) => {
      const def = model?.options[k];
      const label = def?.label ?? k.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase()).replace(/ (.)/g, (_m, c: string) => ` ${c.toLowerCase()}`);
      const value = def?.kind === 'choice' && def.valueLabel ? def.valueLabel(typeof v === 'boolean' ? String(v) : v) : v === true ? 'yes' : String(v);
      return `${label}: ${value}`;
    });
}

/** "1024 × 576 px", from what was probed at save, or what was asked for. */
function sizeOf(item: MediaItemView): string | undefined {
  const w = item.width ?? (typeof item.options.width === 'number' ? item.options.width : undefined);
  const h = item.height ?? (typeof item.options.height === 'number' ? item.options.height : undefined);
  return w && h ? `${w} × ${h} px` : undefined;
}

/** "Edited from", "Upscaled from", "Variation of": how a result made from another one came about (its model says). */
function sourceLabel(item: MediaItemView): string | undefined {
  if (typeof item.options.sourceMediaId !== 'string') return undefined;
  const operation = modelOfReplicate(item.model)?.operation;
  return operation === 'edit' ? 'Edited from' : operation === 'upscale' ? 'Upscaled from' : 'Variation of';
}

/**
 * An image that zooms to twice its fitted size when clicked (or with the Zoom button), and pans by following the
 * pointer (a finger dragging on a phone) while zoomed.
 */
function ZoomableImage({ item, alt }: { item: MediaItemView; alt: string }) {
  const [zoomed, setZoomed] = useState(false);
  const [origin, setOrigin] = useState('50% 50%');
  useEffect(() => setZoomed(false), [item.id]);
  const follow = (e: PointerEvent<HTMLDivElement>) => {
    if (!zoomed) return;
    const r = e.currentTarget.getBoundingClientRect();
    setOrigin(`${((e.clientX - r.left) / r.width) * 100}% ${((e.clientY - r.top) / r.height) * 100}%`);
  };
  return (
    <div className="relative flex size-full items-center justify-center overflow-hidden" onPointerMove={follow} onPointerDown={follow}>
      <img
        src={item.url}
        crossOrigin={MEDIA_CROSS_ORIGIN}
        alt={alt}
        onClick={() => setZoomed((z) => !z)}
        style={{ transform: zoomed ? 'scale(2)' : undefined, transformOrigin: origin }}
        className={cx('max-h-[78dvh] w-auto max-w-full touch-none object-contain transition-transform duration-200', zoomed ? 'cursor-zoom-out' : 'cursor-zoom-in')}
        data-testid="lightbox-media"
      />
      <Button size="sm" variant="secondary" className="absolute right-3 bottom-3" aria-pressed={zoomed} onClick={() => setZoomed((z) => !z)}>
        {zoomed ? 'Zoom out' : 'Zoom in'}
      </Button>
    </div>
  );
}

/** Shares the result (privately: the prompt stays off its page until the owner says otherwise); the panel then shows the link. */
function ShareButton({ item, onError }: { item: MediaItemView; onError: (m: string) => void }) {
  const [busy, setBusy] = useState(false);
  const share = async () => {
    setBusy(true);
    onError('');
    try {
      await shareItem(item, false);
    } catch (err) {
      onError(`Sharing failed: ${reasonOf(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="sm" variant="secondary" loading={busy} onClick={() => void share()}>
      Share
    </Button>
  );
}

/** A shared result's link, Copy link, whether its page shows the prompt, and Stop sharing. */
function SharePanel({ item, onError }: { item: MediaItemView & { shareUrl: string }; onError: (m: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    onError('');
    try {
      await fn();
    } catch (err) {
      onError(`Sharing failed: ${reasonOf(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-2 rounded-control border border-line p-3" data-testid="share-controls">
      <p className="text-sm text-ink">
        Shared: anyone with the link can see it.{' '}
        <a className="break-all text-brand-ink underline" href={item.shareUrl} target="_blank" rel="noreferrer" data-testid="share-url">
          {item.shareUrl}
        </a>
      </p>
      <label className="flex items-center gap-2 text-sm text-ink-muted">
        <input type="checkbox" checked={item.sharePrompt ?? false} disabled={busy} onChange={(e) => void run(() => shareItem(item, e.target.checked))} />
        Show the prompt on the shared page
      </label>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={() => void navigator.clipboard?.writeText(item.shareUrl).then(() => setCopied(true), () => undefined)}>
          {copied ? 'Copied' : 'Copy link'}
        </Button>
        <Button size="sm" variant="ghost" loading={busy} onClick={() => void run(() => unshareItem(item))}>
          Stop sharing
        </Button>
      </div>
    </div>
  );
}

/** "4 credits", or "8 credits for 2 images" when the job that made it made several. */
function creditsLabel(item: MediaItemView): string | undefined {
  if (item.credits === undefined) return undefined;
  const words = `${item.credits} credit${item.credits === 1 ? '' : 's'}`;
  const count = typeof item.options.count === 'number' ? item.options.count : 1;
  return count > 1 ? `${words} for ${count} images` : words;
}

/**
 * The result an edit, upscale or variation was made from: in the list already, or read once (GET /api/media/{id});
 * 'gone' once the owner deleted it.
 */
function useSource(items: readonly MediaItemView[], id: string | undefined): MediaItemView | 'gone' | undefined {
  const listed = id ? items.find((i) => i.id === id) : undefined;
  const [read, setRead] = useState<{ id: string; item: MediaItemView | 'gone' }>();
  useEffect(() => {
    if (!id || listed || read?.id === id) return;
    const controller = new AbortController();
    getMediaItem(id, controller.signal).then(
      (item) => setRead({ id, item }),
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 404) setRead({ id, item: 'gone' });
      },
    );
    return () => controller.abort();
  }, [id, listed, read?.id]);
  return listed ?? (read && read.id === id ? read.item : undefined);
}

export function Lightbox({ items: listed, openId, onOpen, onDelete, collection }: LightboxProps) {
  // A source opened from the details panel that the list does not hold (another page or filter) is shown after it.
  const [extra, setExtra] = useState<MediaItemView>();
  const items = extra && !listed.some((i) => i.id === extra.id) ? [...listed, extra] : listed;
  const index = items.findIndex((i) => i.id === openId);
  const item = index >= 0 ? items[index] : undefined;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [collecting, setCollecting] = useState(false);
  const collectId = useId();
  useEffect(() => {
    setConfirming(false);
    setCollecting(false);
    setError('');
    setNotice('');
  }, [openId]);
  const sourceId = item?.options.sourceMediaId;
  const sourceItem = useSource(items, typeof sourceId === 'string' ? sourceId : undefined);

  const move = (step: number) => {
    if (index < 0 || items.length < 2) return;
    onOpen(items[(index + step + items.length) % items.length]!.id);
  };
  const moveRef = useRef(move);
  moveRef.current = move;
  const open = index >= 0;
  // Left and Right anywhere in the dialog (its close button has focus first), but not in a video's controls or a field.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (e: globalThis.KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      // Only inside the lightbox's own dialog (not a dialog opened over it).
      if (!t?.closest?.('[role="dialog"]')?.querySelector('[data-testid="lightbox"]')) return;
      if (t.closest?.('video, input, textarea, select')) return;
      if (e.key === 'ArrowRight') moveRef.current(1);
      else if (e.key === 'ArrowLeft') moveRef.current(-1);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  if (!item) return null;
  const what = item.type === 'image' ? 'image' : 'video';
  const promptText = item.prompt.trim() || GenerationText.noPrompt;
  const animate = item.type === 'image' ? animateUrl(item) : undefined;
  const seed = seedLabel(item.options);
  const source = sourceLabel(item);
  const credits = creditsLabel(item);
  const openSource = (s: MediaItemView) => {
    if (!items.some((i) => i.id === s.id)) setExtra(s);
    onOpen(s.id);
  };
  return (
    <Modal
      open
      onClose={() => onOpen(undefined)}
      size="full"
      title={`${what === 'image' ? 'Image' : 'Video'} ${index + 1} of ${items.length}`}
    >
      <div className="flex flex-col gap-4 lg:flex-row" data-testid="lightbox">
        <div className="flex min-h-0 flex-1 items-center justify-center rounded-control bg-black">
          {item.type === 'image' ? (
            <ZoomableImage item={item} alt={promptText} />
          ) : (
            <video
              key={item.id}
              src={item.url}
              crossOrigin={MEDIA_CROSS_ORIGIN}
              poster={item.posterUrl}
              controls
              playsInline
              autoPlay
              aria-label={`Video: ${promptText}`}
              className="max-h-[78dvh] w-full object-contain"
              data-testid="lightbox-media"
            />
          )}
        </div>
        <div className="flex w-full flex-col gap-3 lg:w-80">
          {/* Said where people look, not only in the file's content credentials. */}
          <AiGeneratedLabel modelName={madeWith(item.model).name} operation={madeWith(item.model).operation} madeAt={item.createdAt} className="self-start" testId="lightbox-ai-label" />
          <p className="break-words text-sm text-ink" data-testid="lightbox-prompt">
            {promptText}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs text-ink-muted">
            <dt>Model</dt>
            <dd data-testid="lightbox-model">{modelName(item.model)}</dd>
            {sizeOf(item) && (
              <>
                <dt>Size</dt>
                <dd>{sizeOf(item)}</dd>
              </>
            )}
            {item.options.startImage === true && (
              <>
                <dt>Source</dt>
                <dd>From a start image</dd>
              </>
            )}
            {source && (
              <>
                <dt>{source}</dt>
                <dd data-testid="lightbox-source">
                  {sourceItem && sourceItem !== 'gone' ? (
                    <button type="button" className="text-left text-brand-ink underline" onClick={() => openSource(sourceItem)}>
                      {sourceItem.prompt.trim() || GenerationText.noPrompt}
                    </button>
                  ) : sourceItem === 'gone' ? (
                    'an image you have deleted'
                  ) : (
                    'one of your images'
                  )}
                </dd>
              </>
            )}
            {item.durationSeconds !== undefined && (
              <>
                <dt>Length</dt>
                <dd>{durationLabel(item.durationSeconds)}</dd>
              </>
            )}
            <dt>Date</dt>
            <dd>
              <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, '')}</time>
            </dd>
            {credits && (
              <>
                <dt>Credits</dt>
                <dd data-testid="lightbox-credits">{credits}</dd>
              </>
            )}
          </dl>
          {seed && <p className="text-xs text-ink-muted">{seed}</p>}
          {optionLines(item).length > 0 && (
            <ul className="text-xs text-ink-muted" aria-label="Options">
              {optionLines(item).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          )}
          <div role="group" aria-label="Actions" className="flex flex-wrap items-start gap-2" data-testid="lightbox-actions">
            <DownloadAction url={item.downloadUrl} label={`Download ${what}: ${promptText}`} onError={setError} />
            <FavoriteButton item={item} onToggle={() => void toggleFavorite(item).catch((err) => setError(`Could not change the favourite: ${reasonOf(err)}`))} />
            {!item.shareUrl && <ShareButton item={item} onError={setError} />}
            <Button size="sm" variant="secondary" aria-expanded={collecting} aria-controls={collectId} onClick={() => setCollecting((c) => !c)}>
              Add to collection
            </Button>
            {collection && (
              <RemoveFromCollection
                collection={collection}
                items={[item]}
                onDone={(m) => {
                  setError('');
                  setNotice(m);
                  // It leaves the filtered list: show the next one (or close when it was the last).
                  onOpen(items.length > 1 ? items[(index + 1) % items.length]!.id : undefined);
                }}
                onError={(m) => {
                  setNotice('');
                  setError(m);
                }}
              />
            )}
            {animate && (
              <ButtonLink to={animate} size="sm" variant="secondary">
                Use as start image
              </ButtonLink>
            )}
            <ButtonLink to={reuseUrl(item, 'prompt')} size="sm" variant="secondary">
              Use prompt
            </ButtonLink>
            <ButtonLink to={reuseUrl(item, 'settings')} size="sm" variant="secondary">
              Use settings
            </ButtonLink>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
              Delete
            </Button>
            <ResultOperations item={item} onError={setError} />
          </div>
          {collecting && (
            <div id={collectId}>
              <AddToCollection
                items={[item]}
                onDone={(m) => {
                  setError('');
                  setNotice(m);
                }}
                onError={(m) => {
                  setNotice('');
                  setError(m);
                }}
              />
            </div>
          )}
          {item.shareUrl && <SharePanel item={{ ...item, shareUrl: item.shareUrl }} onError={setError} />}
          {confirming && (
            <div role="alertdialog" aria-label={`Delete this ${what}?`} className="space-y-2 rounded-control border border-danger/40 p-3">
              <p className="text-sm text-ink">Delete this {what}? It will be removed from your account for good, with its file.</p>
              <div className="flex gap-2">
                <Button size="sm" variant="secondary" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => {
                    const next = items.length > 1 ? items[(index + 1) % items.length]!.id : undefined;
                    onDelete(item);
                    onOpen(next);
                  }}
                >
                  Delete
                </Button>
              </div>
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
          <p role="status" className="text-sm text-ink empty:hidden">
            {notice}
          </p>
          <div className="mt-auto flex justify-between gap-2 pt-2">
            <Button size="sm" variant="ghost" onClick={() => move(-1)} disabled={items.length < 2} aria-label="Previous">
              ← Previous
            </Button>
            <Button size="sm" variant="ghost" onClick={() => move(1)} disabled={items.length < 2} aria-label="Next">
              Next →
            </Button>
          </div>
        </div>
      </div>
    </Modal>
  );
}
