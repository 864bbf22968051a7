import { Spinner } from '../../components/spinner';
import { GenerationText, type GeneratorPreviewProps, PreviewCaption } from '../generation';
import { MEDIA_CROSS_ORIGIN } from '../../lib/media-cross-origin';

/** The current image, or 'No image generated yet.', under the 'Generating...' overlay while a job runs. */
export function ImagePreview({ shown: image, item, generating, listLoading, onError }: GeneratorPreviewProps) {
  return (
    <section aria-labelledby="image-preview-title" className="flex flex-col gap-3">
      <h2 id="image-preview-title" className="sr-only">
        Preview
      </h2>
      <div
        aria-busy={generating}
        className="relative h-[clamp(18rem,62vh,44rem)] w-full overflow-hidden rounded-card border border-line bg-surface shadow-card"
      >
        {image ? (
          <img key={image.url} src={image.url} crossOrigin={MEDIA_CROSS_ORIGIN} alt={image.prompt || 'Generated image'} className="size-full object-contain" />
        ) : (
          !listLoading && (
            <div className="flex size-full flex-col items-center justify-center gap-3 p-6 text-center">
              <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-10 text-ink-subtle">
                <path
                  strokeLinecap="round"
                  strokeLinejoin="round"
                  d="m2.25 15.75 5.16-5.16a2.25 2.25 0 0 1 3.18 0l5.16 5.16m-1.5-1.5 1.41-1.41a2.25 2.25 0 0 1 3.18 0l2.91 2.91M3.75 21h16.5A1.5 1.5 0 0 0 21.75 19.5V4.5A1.5 1.5 0 0 0 20.25 3H3.75A1.5 1.5 0 0 0 2.25 4.5v15A1.5 1.5 0 0 0 3.75 21Zm10.5-13.5h.008v.008h-.008V7.5Zm.375 0a.375.375 0 1 1-.75 0 .375.375 0 0 1 .75 0Z"
                />
              </svg>
              <p className="text-base text-ink-muted">{GenerationText.noImageYet}</p>
            </div>
          )
        )}
        {generating && (
          <div role="status" className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-overlay backdrop-blur-sm">
            <Spinner size="lg" decorative className="text-brand-ink" />
            <p className="text-base font-medium text-ink">{GenerationText.generating}</p>
          </div>
        )}
      </div>
      {image && <PreviewCaption prompt={image.prompt} item={item} kind="image" onError={onError} />}
    </section>
  );
}
