/**
 * Brings a new result into view when it appears off screen (on a phone the preview sits below the long settings
 * form). 'nearest' leaves the page alone when the preview is already visible.
 */
export function reveal(element: HTMLElement | null): void {
  if (!element || typeof element.scrollIntoView !== 'function') return;
  const reduce = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  requestAnimationFrame(() => element.scrollIntoView({ block: 'nearest', behavior: reduce ? 'auto' : 'smooth' }));
}
