/**
 * A result full size in an accessible dialog (the Modal: focus trapped, Escape closes and focus returns to the card
 * that opened it); Left and Right move through the list it was opened from. It shows what made the result (prompt,
 * model, options, seed, date) and its actions: reuse, animate, share, download, favourite, delete.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { ButtonLink } from '../../components/button-link';
import { Modal } from '../../components/modal';
import { formatDateTime } from '../../lib/format-date-time';
import { GenerationText, reasonOf } from './generation-messages';
import type { MediaItemView } from './media-api';
import { DownloadAction } from './media-card';
import { seedLabel } from './media-labels';
import { shareItem, toggleFavorite, unshareItem } from './media-list';
import { animateUrl, modelName, reuseUrl } from './result-links';
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
function optionLines(options: MediaItemView['options']): string[] {
  return Object.entries(options)
    .filter(([k, v]) => k !== 'seed' && v !== '' && v !== false)
    .map(([k, v]) => `${k.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase())}: ${v === true ? 'yes' : String(v)}`);
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
  useEffect(() => {
    setConfirming(false);
    setError('');
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
  return (
    <Modal
      open
      onClose={() => onOpen(undefined)}
      size="xl"
      title={`${what === 'image' ? 'Image' : 'Video'} ${index + 1} of ${items.length}`}
    >
      <div className="flex flex-col gap-4 lg:flex-row" data-testid="lightbox">
        <div className="flex min-h-0 flex-1 items-center justify-center rounded-control bg-black">
          {item.type === 'image' ? (
            <img src={item.url} crossOrigin={MEDIA_CROSS_ORIGIN} alt={promptText} className="max-h-[65dvh] w-auto max-w-full object-contain" data-testid="lightbox-media" />
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
              className="max-h-[65dvh] w-full object-contain"
              data-testid="lightbox-media"
            />
          )}
        </div>
        <div className="flex w-full flex-col gap-3 lg:w-80">
          <p className="break-words text-sm text-ink" data-testid="lightbox-prompt">
            {promptText}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs text-ink-muted">
            <dt>Model</dt>
            <dd data-testid="lightbox-model">{modelName(item.model)}</dd>
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
          {optionLines(item.options).length > 0 && (
            <ul className="text-xs text-ink-muted" aria-label="Options">
              {optionLines(item.options).map((l) => (
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
          <ShareControls item={item} onError={setError} />
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
