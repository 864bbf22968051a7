import { GenerationText, type GeneratorPreviewProps, PreviewCaption } from '../generation';
import { MEDIA_CROSS_ORIGIN } from '../../lib/media-cross-origin';

/** The newest result of this model in a player, with its prompt and Download. */
export function VideoPreview({ shown: video, item, listLoading, onError }: Pick<GeneratorPreviewProps, 'shown' | 'item' | 'listLoading' | 'onError'>) {
  return (
    <section aria-labelledby="video-preview-title" className="flex flex-col gap-3">
      <h2 id="video-preview-title" className="sr-only">
        Preview
      </h2>
      <div className="relative aspect-video w-full overflow-hidden rounded-card border border-line bg-black shadow-card">
        {video ? (
          <video
            key={video.url}
            src={video.url}
            crossOrigin={MEDIA_CROSS_ORIGIN}
            // The poster belongs to the listed item (a video just finished shows before the list has it).
            poster={item?.posterUrl}
            controls
            playsInline
            preload="metadata"
            aria-label={`Preview: ${video.prompt || GenerationText.noPrompt}`}
            data-testid="video-preview"
            className="size-full object-contain"
          />
        ) : (
          !listLoading && (
            <div className="flex size-full flex-col items-center justify-center gap-3 bg-surface p-6 text-center">
              <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-10 text-ink-subtle">
                <path strokeLinecap="round" strokeLinejoin="round" d="m15.75 10.5 4.72-4.72a.75.75 0 0 1 1.28.53v11.38a.75.75 0 0 1-1.28.53l-4.72-4.72M4.5 18.75h9a2.25 2.25 0 0 0 2.25-2.25v-9A2.25 2.25 0 0 0 13.5 5.25h-9A2.25 2.25 0 0 0 2.25 7.5v9a2.25 2.25 0 0 0 2.25 2.25Z" />
              </svg>
              <p className="text-base text-ink-muted">No video generated yet.</p>
            </div>
          )
        )}
      </div>
      {video && <PreviewCaption prompt={video.prompt} item={item} kind="video" onError={onError} />}
    </section>
  );
}
