import { useEffect, useRef, useState } from 'react';
import { AiGeneratedLabel } from '../../components/ai-generated-label';
import type { MediaClip } from './media';

/**
 * The landing page's looping clip: muted, inline, with a poster so the first paint needs no video data.
 * It plays by itself only where that costs the visitor little: on screens at least 768 px wide, without
 * Save-Data and without a reduced-motion preference. Phones get the poster and a play button, so a visit
 * on mobile data does not download the clip unasked (preload none: not even its first bytes). Moving content that plays on its own has a pause
 * button (WCAG 2.2.2).
 */
const AUTOPLAY_QUERY = '(min-width: 768px) and (prefers-reduced-motion: no-preference)';

function shouldAutoplay(): boolean {
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData ?? false;
  return !saveData && (window.matchMedia?.(AUTOPLAY_QUERY).matches ?? false);
}

export function HeroVideo({ clip, label }: { clip: MediaClip; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (!shouldAutoplay()) return;
    // play() rejects when the browser refuses autoplay; the poster stays and the button offers play.
    video.play()?.catch(() => setPlaying(false));
  }, []);

  function toggle() {
    const video = ref.current;
    if (!video) return;
    if (video.paused) void video.play()?.catch(() => setPlaying(false));
    else video.pause();
  }

  return (
    <figure className="relative overflow-hidden rounded-card border border-line bg-surface shadow-overlay">
      <video
        ref={ref}
        className="block h-auto w-full object-cover"
        style={{ aspectRatio: `${clip.width} / ${clip.height}` }}
        width={clip.width}
        height={clip.height}
        poster={clip.poster}
        muted
        loop
        playsInline
        preload="none"
        aria-label={label}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
      >
        <source src={clip.video} type="video/mp4" />
      </video>
      <button
        type="button"
        onClick={toggle}
        className="absolute right-3 bottom-3 inline-flex size-10 items-center justify-center rounded-pill border border-line-strong bg-overlay text-ink hover:bg-surface-hover"
        aria-label={playing ? 'Pause the video' : 'Play the video'}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          {playing ? <path d="M6 4h3v12H6zM11 4h3v12h-3z" /> : <path d="M6 4l10 6-10 6z" />}
        </svg>
      </button>
      {clip.placeholder ? (
        // Said on screen, not only to screen readers: nobody should take the simulator's shapes for the product.
        <figcaption className="absolute top-3 left-3 rounded-pill border border-line-strong bg-overlay px-3 py-1 text-xs font-medium text-ink" data-testid="placeholder-badge">
          Placeholder clip, not model output
        </figcaption>
      ) : (
        <figcaption className="absolute top-3 left-3">
          <AiGeneratedLabel modelName={clip.madeWith} madeAt={clip.madeAt} className="bg-overlay" />
        </figcaption>
      )}
    </figure>
  );
}
