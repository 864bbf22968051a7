import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { ButtonLink } from '../../components/button-link';
import { useNavigation } from '../../lib/navigation';
import { Footer } from './footer';
import { NavItems, type NavItem } from './nav-items';
import { SiteHeader } from './site-header';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

export const MARKETING_LINKS: readonly NavItem[] = [
  { label: 'Features', to: '/features' },
  { label: 'Learn', to: '/learn' },
  { label: 'Contact', to: '/contact' },
  { label: 'Example', to: '/example' },
  { label: 'FAQ', to: '/faq' },
  { label: 'Pricing', to: '/pricing' },
];

/**
 * The marketing pages' layout around a page: top bar with the product links and 'Go To App', main
 * landmark, footer. Router-free, so both the app (marketing-layout.tsx) and the light marketing entry
 * render this same component.
 */
export function MarketingFrame({ children }: { children: ReactNode }) {
  const mainRef = useRef<HTMLElement>(null);
  const announcement = usePageChangeFocus(mainRef);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader navLabel="Main">
        <NavItems items={MARKETING_LINKS} />
        <ButtonLink to="/generator" size="sm" className="mt-2 md:mt-0 md:ml-3">
          Go To App
        </ButtonLink>
      </SiteHeader>
      <main ref={mainRef} id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <Footer />
      {/* Not role=status: pages have their own status messages (payment, contact form). */}
      <div aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </div>
    </div>
  );
}

/**
 * After an in-page navigation to another page (not on first load, not for a new query or hash), moves
 * focus to the main content, so keyboard and screen reader users start reading the new page instead of
 * being left on a link of the old one, and announces the new page's title. Returns the announcement.
 */
function usePageChangeFocus(mainRef: RefObject<HTMLElement | null>): string {
  const { pathname } = useNavigation();
  const shown = useRef(pathname);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    mainRef.current?.focus({ preventScroll: true });
    // React has put the new page's <title> in the head by the time effects run.
    setAnnouncement(document.title);
  }, [pathname, mainRef]);
  return announcement;
}
