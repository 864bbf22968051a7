/**
 * A result full size in an accessible dialog (the Modal: focus trapped, Escape closes and focus returns to the card
 * that opened it); Left and Right move through the list it was opened from. It shows what made the result (prompt,
 * model, options, seed, date) and its actions: reuse, animate, share, download, favourite, delete.
 */
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { modelOfReplicate } from '../../../../contract/models';
import { cx } from '../../lib/cx';
import { Button } from '../../components/button';
import { ButtonLink } from '../../components/button-link';
import { Modal } from '../../components/modal';
import { AiGeneratedLabel } from '../../components/ai-generated-label';
import { formatDateTime } from '../../lib/format-date-time';
import { GenerationText, reasonOf } from './generation-messages';
import { AddToCollection } from './collections';
import { optionsIgnoredWithImage } from './ignored-options';
import type { MediaItemView } from './media-api';
import { DownloadAction } from './media-card';
import { seedLabel } from './media-labels';
import { shareItem, toggleFavorite, unshareItem } from './media-list';
import { animateUrl, modelName, reuseUrl } from './result-links';
import { ResultOperations } from './result-operations';
import { durationLabel, FavoriteButton } from './result-parts';
import { MEDIA_CROSS_ORIGIN } from '../../lib/media-cross-origin';

export interface LightboxProps {
  items: readonly MediaItemView[];
  /** The open item's id; undefined: closed. */
  openId: string | undefined;
  onOpen: (id: string | undefined) => void;
  onDelete: (item: MediaItemView) => void;
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

function ShareControls({ item, onError }: { item: MediaItemView; onError: (m: string) => void }) {
  const [showPrompt, setShowPrompt] = useState(item.sharePrompt ?? false);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setShowPrompt(item.sharePrompt ?? false), [item.id, item.sharePrompt]);
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
      <label className="flex items-center gap-2 text-sm text-ink-muted">
        <input
          type="checkbox"
          checked={showPrompt}
          onChange={(e) => {
            setShowPrompt(e.target.checked);
            if (item.shareUrl) void run(() => shareItem(item, e.target.checked));
          }}
        />
        Show the prompt on the shared page
      </label>
      {item.shareUrl ? (
        <>
          <p className="text-sm text-ink">
            Shared: anyone with the link can see it.{' '}
            <a className="break-all text-brand-ink underline" href={item.shareUrl} target="_blank" rel="noreferrer" data-testid="share-url">
              {item.shareUrl}
            </a>
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void navigator.clipboard?.writeText(item.shareUrl!).then(() => setCopied(true), () => undefined)}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
            <Button size="sm" variant="ghost" loading={busy} onClick={() => void run(() => unshareItem(item))}>
              Stop sharing
            </Button>
          </div>
        </>
      ) : (
        <Button size="sm" variant="secondary" loading={busy} onClick={() => void run(() => shareItem(item, showPrompt))}>
          Share
        </Button>
      )}
    </div>
  );
}

export function Lightbox({ items, openId, onOpen, onDelete }: LightboxProps) {
  const index = items.findIndex((i) => i.id === openId);
  const item = index >= 0 ? items[index] : undefined;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  useEffect(() => {
    setConfirming(false);
    setError('');
    setNotice('');
  }, [openId]);

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
  const sourceIndex = source ? items.findIndex((i) => i.id === item.options.sourceMediaId) : -1;
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
          <AiGeneratedLabel modelName={modelName(item.model)} madeAt={item.createdAt} className="self-start" testId="lightbox-ai-label" />
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
                  {sourceIndex >= 0 ? (
                    <button type="button" className="text-left text-brand-ink underline" onClick={() => onOpen(items[sourceIndex]!.id)}>
                      {items[sourceIndex]!.prompt.trim() || GenerationText.noPrompt}
                    </button>
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
          </dl>
          {seed && <p className="text-xs text-ink-muted">{seed}</p>}
          {optionLines(item).length > 0 && (
            <ul className="text-xs text-ink-muted" aria-label="Options">
              {optionLines(item).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap gap-2">
            <ButtonLink to={reuseUrl(item, 'prompt')} size="sm" variant="secondary">
              Use prompt
            </ButtonLink>
            <ButtonLink to={reuseUrl(item, 'settings')} size="sm" variant="secondary">
              Use settings
            </ButtonLink>
            {animate && (
              <ButtonLink to={animate} size="sm" variant="secondary">
                Animate
              </ButtonLink>
            )}
          </div>
          <ResultOperations item={item} onError={setError} />
          <ShareControls item={item} onError={setError} />
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
          <div className="flex flex-wrap items-center gap-2">
            <DownloadAction url={item.downloadUrl} label={`Download ${what}: ${promptText}`} onError={setError} />
            <FavoriteButton item={item} onToggle={() => void toggleFavorite(item).catch((err) => setError(`Could not change the favourite: ${reasonOf(err)}`))} />
            <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </div>
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
