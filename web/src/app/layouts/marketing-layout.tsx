import { Outlet } from 'react-router-dom';
import { ButtonLink } from '../../components/button-link';
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

/** Layout of the marketing pages: top bar with the product links and 'Go To App'. */
export function MarketingLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader navLabel="Main">
        <NavItems items={MARKETING_LINKS} />
        <ButtonLink to="/generator" size="sm" className="mt-2 md:mt-0 md:ml-3">
          Go To App
        </ButtonLink>
      </SiteHeader>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

export default MarketingLayout;
