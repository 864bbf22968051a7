import { useState, type MouseEvent } from 'react';
import type { ExampleClip } from './media';

/**
 * One /example clip: its poster as a lazily loaded image, and the video itself once the visitor asks for it.
 *
 * A `<video poster>` fetches its poster as the page parses, whether or not it is on screen, and a phone's first paint
 * (the page's largest text) then waits behind four posters on a slow connection (Lighthouse's LCP went from about
 * 0.9 s to 1.3 s). An `<img loading="lazy">` is fetched only once laid out near the screen. A poster-less video with
 * controls cannot stand in: browsers draw an opaque loading panel over what is behind it.
 *
 * The poster is a link to the MP4: before any script runs (or without scripts) it opens the clip in the browser's
 * own player; once the app has hydrated the page, the click puts the video in its place, playing, with controls.
 */
/** A stable callback ref: React calls it when the video mounts, not again on every render (an inline arrow would be). */
const focusOnMount = (video: HTMLVideoElement | null) => {
  video?.focus();
};

export function ExampleClipPlayer({ example, label }: { example: ExampleClip; label: string }) {
  const [open, setOpen] = useState(false);
  const box = 'block h-auto w-full rounded-control border border-line bg-canvas object-contain';
  const aspectRatio = `${example.width} / ${example.height}`;

  if (open) {
    return (
      <video
        className={box}
        style={{ aspectRatio }}
        width={example.width}
        height={example.height}
        poster={example.poster}
        controls
        autoPlay
        muted
        loop
        playsInline
        preload="auto"
        aria-label={label}
        ref={focusOnMount}
      >
        <source src={example.video} type="video/mp4" />
      </video>
    );
  }

  function play(event: MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setOpen(true);
  }

  return (
    <a href={example.video} type="video/mp4" onClick={play} aria-label={`Play ${label}`} className="group relative block rounded-control">
      <img
        src={example.poster}
        alt=""
        width={example.width}
        height={example.height}
        loading="lazy"
        decoding="async"
        className={box}
        style={{ aspectRatio }}
      />
      <span
        aria-hidden="true"
        className="absolute inset-0 m-auto inline-flex size-14 items-center justify-center rounded-pill border border-line-strong bg-overlay text-ink group-hover:bg-surface-hover"
      >
        <svg viewBox="0 0 20 20" className="size-6" fill="currentColor">
          <path d="M6 4l10 6-10 6z" />
        </svg>
      </span>
    </a>
  );
}
