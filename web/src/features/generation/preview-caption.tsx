import { Link } from 'react-router-dom';
import { buttonClasses } from '../../components/button';
import { GenerationText } from './generation-messages';
import type { MediaItemView } from './media-api';
import { DownloadAction } from './media-card';
import { seedLabel } from './media-labels';
import { animateUrl } from './reuse-urls';

export interface PreviewCaptionProps {
  prompt: string;
  /** The gallery item shown, once loaded: it gives the download link. */
  item: MediaItemView | undefined;
  kind: 'image' | 'video';
  onError: (message: string) => void;
}

/** Under a generator's preview: the result's prompt, Animate (an image, as a video's start image) and Download. */
export function PreviewCaption({ prompt, item, kind, onError }: PreviewCaptionProps) {
  const text = prompt || GenerationText.noPrompt;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0 flex-1">
        <p className="break-words text-sm text-ink-muted">{text}</p>
        {seedLabel(item?.options) && (
          <p className="text-xs text-ink-subtle" data-testid="result-seed">
            {seedLabel(item?.options)}
          </p>
        )}
      </div>
      <div className="flex shrink-0 gap-2">
        {item && kind === 'image' && (
          <Link to={animateUrl(item)} className={buttonClasses({ variant: 'secondary', size: 'sm' })} aria-label={`Animate: ${text}`}>
            Animate
          </Link>
        )}
        {item && <DownloadAction url={item.downloadUrl} label={`Download ${kind}: ${text}`} onError={onError} />}
      </div>
    </div>
  );
}
