import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '../../components/card';
import { textLinkClass } from '../../components/link-styles';
import { cx } from '../../lib/cx';
import { MODEL_VIEWS } from '../../../../contract/models/view';
import { AUTH_CLIP, credits } from '../marketing';

/** "Images from 1 credit. Videos with Wan 2.1 (480p), Pixverse v4.5 and Kling 2.1.": the registry's models and cheapest image. */
function studioLine(): string {
  const generators = MODEL_VIEWS.filter((m) => !m.upcoming && m.operation === 'generate');
  const images = generators.filter((m) => m.kind === 'image' && m.price !== null).map((m) => m.price!);
  const videos = generators.filter((m) => m.kind === 'video').map((m) => m.name);
  const named = videos.length > 1 ? `${videos.slice(0, -1).join(', ')} and ${videos[videos.length - 1]}` : (videos[0] ?? '');
  return `Images from ${credits(Math.min(...images))}. Videos with ${named}.`;
}

const WIDE = '(min-width: 1024px)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches);
  useEffect(() => {
    const list = window.matchMedia?.(query);
    if (!list) return;
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

/**
 * The looping muted clip beside the login and signup forms (contract/showcase.ts `authLoop`). Only wide screens get it
 * (phones keep their data), and with reduced motion it stays on its poster frame. While it is a simulator placeholder
 * the column is a designed panel instead.
 */
export function AuthVideo() {
  const wide = useMediaQuery(WIDE);
  const still = useMediaQuery(REDUCED_MOTION);
  if (!wide) return null;
  if (AUTH_CLIP.placeholder) {
    // The simulator's shapes (with their prompt written over them) are no picture to sign in beside: a designed panel.
    return (
      <div className="relative hidden aspect-[4/5] max-h-[calc(100dvh-12rem)] overflow-hidden rounded-card border border-line bg-gradient-to-br from-brand/30 via-surface to-accent/25 shadow-card lg:block" aria-hidden="true" data-testid="auth-panel">
        <div className="absolute inset-x-0 bottom-0 p-8">
          <p className="text-lg font-semibold text-ink">From a prompt to a moving picture.</p>
          <p className="mt-1 text-sm text-ink-muted">{studioLine()}</p>
        </div>
      </div>
    );
  }
  return (
    // Never wider or taller than the clip was rendered: an upscaled loop looks soft beside crisp text.
    <div className="relative hidden w-full justify-self-center overflow-hidden rounded-card border border-line shadow-card lg:block" style={{ maxWidth: AUTH_CLIP.width }} aria-hidden="true">
      <video
        className="block h-auto w-full"
        style={{ aspectRatio: `${AUTH_CLIP.width} / ${AUTH_CLIP.height}` }}
        width={AUTH_CLIP.width}
        height={AUTH_CLIP.height}
        src={AUTH_CLIP.video}
        poster={AUTH_CLIP.poster}
        autoPlay={!still}
        loop
        muted
        playsInline
        preload="auto"
        tabIndex={-1}
        data-testid="auth-video"
      />
      <div className="pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-canvas/90 to-transparent p-8">
        <p className="text-lg font-semibold text-ink">From a prompt to a moving picture.</p>
        <p className="mt-1 text-sm text-ink-muted">{studioLine()}</p>
      </div>
    </div>
  );
}

export interface AuthShellProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** The line under the card that leads to the other account page, e.g. 'Don't have an account? Sign up'. */
  footer?: { question: string; to: string; link: string; state?: unknown };
  /** The clip beside the form (login and signup). */
  withVideo?: boolean;
}

/** The frame of the account pages: a titled card, optionally beside the looping clip. */
export function AuthShell({ title, subtitle, children, footer, withVideo = false }: AuthShellProps) {
  return (
    <section
      className={cx(
        'mx-auto grid w-full flex-1 items-center gap-10 px-4 py-10 sm:px-6 lg:py-16',
        withVideo ? 'max-w-6xl lg:grid-cols-2' : 'max-w-6xl',
      )}
    >
      <title>{`${title} · Framewright`}</title>
      <div className="mx-auto w-full max-w-md">
        <Card padding="lg" className="p-6 sm:p-8">
          <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
          {subtitle && <p className="mt-2 text-sm text-ink-muted">{subtitle}</p>}
          <div className="mt-6">{children}</div>
        </Card>
        {footer && (
          <div className="mt-6 text-center text-sm text-ink-muted">
            {footer.question}{' '}
            <Link to={footer.to} state={footer.state} className={textLinkClass}>
              {footer.link}
            </Link>
          </div>
        )}
      </div>
      {withVideo ? <AuthVideo /> : null}
    </section>
  );
}
