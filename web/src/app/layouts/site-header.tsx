import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Logo } from '../../components/logo';
import { cx } from '../../lib/cx';
import { AppLink, useNavigation } from '../../lib/navigation';

const NAV_ID = 'site-nav';

export interface SiteHeaderProps {
  /** Accessible name of the nav landmark. */
  navLabel: string;
  /** Links and actions; laid out in a row on md+ and in a drop-down panel on small screens. */
  children: ReactNode;
}

/** The sticky top bar shared by both layouts: logo, nav content and a mobile menu toggle. */
export function SiteHeader({ navLabel, children }: SiteHeaderProps) {
  // The header's own state: a store would put zustand into every marketing page's first download.
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useNavigation();

  // Navigating closes the menu.
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-canvas/80 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <AppLink to="/" className="flex items-center rounded-control">
          <Logo />
          <span className="sr-only"> home</span>
        </AppLink>
        <button
          ref={toggleRef}
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-control text-ink-muted hover:bg-surface-hover hover:text-ink md:hidden"
          aria-controls={NAV_ID}
          aria-expanded={open}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((o) => !o)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
        <nav
          id={NAV_ID}
          aria-label={navLabel}
          className={cx(
            'md:static md:flex md:flex-row md:items-center md:gap-1 md:border-0 md:bg-transparent md:p-0 md:shadow-none',
            open
              ? 'absolute inset-x-0 top-16 flex flex-col gap-1 border-b border-line bg-surface p-4 shadow-overlay'
              : 'hidden',
          )}
        >
          {children}
        </nav>
      </div>
    </header>
  );
}
