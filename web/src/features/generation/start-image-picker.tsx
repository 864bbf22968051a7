import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { MAX_START_IMAGE_BYTES } from '../../../../contract/catalog';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { cx } from '../../lib/cx';
import type { StartImageSource, StartImageState } from './start-image';

export interface StartImagePickerProps {
  state: StartImageState;
  /** Shows a check's message in the page's error line (undefined clears it). */
  onError: (message: string | undefined) => void;
  disabled?: boolean;
  /** e.g. "Optional. The video starts from this frame." */
  hint?: string;
  /** The picture's name in the registry ('Start image', 'End image'). */
  label?: string;
  required?: boolean;
  className?: string;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * A picture the model takes (a start or an end frame): click to pick or drag and drop a file, a preview once chosen,
 * Replace and Remove.
 */
export function StartImagePicker({ state, onError, disabled = false, hint, label = 'Start image', required = false, className }: StartImagePickerProps) {
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragDepth, setDragDepth] = useState(0);
  const { image } = state;

  function take(file: File | undefined, source: StartImageSource) {
    if (!file || disabled) return;
    const error = state.select(file, source);
    onError(error);
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    take(event.target.files?.[0], 'picker');
    // Picking the same file again after Remove must fire change again.
    event.target.value = '';
  }

  function onDragEnter(event: DragEvent) {
    if (!hasFiles(event) || disabled) return;
    event.preventDefault();
    setDragDepth((d) => d + 1);
  }
  function onDragOver(event: DragEvent) {
    if (!hasFiles(event) || disabled) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }
  function onDragLeave() {
    setDragDepth((d) => Math.max(0, d - 1));
  }
  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragDepth(0);
    take(event.dataTransfer?.files?.[0], 'drop');
  }

  const dragging = dragDepth > 0;
  const dropHandlers = { onDragEnter, onDragOver, onDragLeave, onDrop };

  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <span className="text-sm font-medium text-ink">
        {label} <span className="font-normal text-ink-subtle">{required ? '(required)' : '(optional)'}</span>
      </span>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept="image/*"
        aria-label={label}
        aria-describedby={hint ? hintId : undefined}
        disabled={disabled}
        onChange={onPick}
        className="peer sr-only"
      />
      {image ? (
        <div
          {...dropHandlers}
          data-testid="start-image-dropzone"
          className={cx(
            'flex items-center gap-3 rounded-control border bg-surface p-2 transition-colors',
            dragging ? 'border-brand bg-brand-soft' : 'border-line',
          )}
        >
          <div className="relative size-20 shrink-0 overflow-hidden rounded-control bg-surface-raised">
            <img src={image.previewUrl} alt={`${label} preview`} className="size-full object-cover" />
            {!image.prepared && (
              <span className="absolute inset-0 flex items-center justify-center bg-overlay">
                <Spinner size="sm" label="Preparing image..." />
              </span>
            )}
          </div>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm text-ink" title={image.file.name}>
              {image.file.name}
            </p>
            <p className="text-xs text-ink-subtle">
              {image.prepared ? `${image.prepared.width}×${image.prepared.height} px` : 'Preparing...'} · {formatBytes(image.file.size)}
            </p>
            <div className="mt-1 flex gap-1">
              <Button variant="ghost" size="sm" className="-ml-2" disabled={disabled} onClick={() => inputRef.current?.click()}>
                Replace
              </Button>
              <Button
                variant="ghost"
                size="sm"
                disabled={disabled}
                onClick={() => {
                  state.clear();
                  onError(undefined);
                }}
                aria-label={`Remove ${label.toLowerCase()}`}
              >
                Remove
              </Button>
            </div>
          </div>
        </div>
      ) : (
        <label
          htmlFor={inputId}
          {...dropHandlers}
          data-testid="start-image-dropzone"
          className={cx(
            'flex min-h-28 flex-col items-center justify-center gap-1 rounded-control border border-dashed px-4 py-5 text-center transition-colors',
            'peer-focus-visible:border-brand peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus',
            disabled
              ? 'cursor-not-allowed border-line opacity-60'
              : dragging
                ? 'cursor-copy border-brand bg-brand-soft'
                : 'cursor-pointer border-line-strong hover:border-brand/60 hover:bg-surface-hover',
          )}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 text-ink-subtle" fill="none" stroke="currentColor" strokeWidth="1.5">
            <path strokeLinecap="round" strokeLinejoin="round" d="M3 16.5v1.75A2.75 2.75 0 0 0 5.75 21h12.5A2.75 2.75 0 0 0 21 18.25V16.5M7.5 8.25 12 3.75l4.5 4.5M12 3.75V16" />
          </svg>
          <span className="text-sm text-ink">
            <span className="font-medium text-brand-ink">Click to upload</span> or drag and drop
          </span>
          <span className="text-xs text-ink-subtle">An image up to {formatBytes(MAX_START_IMAGE_BYTES)}</span>
        </label>
      )}
      {hint && (
        <p id={hintId} className="text-xs text-ink-subtle">
          {hint}
        </p>
      )}
    </div>
  );
}
