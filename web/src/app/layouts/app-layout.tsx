import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { SessionNav } from '../../features/auth/session-nav';
// The push channel's handlers, registered once for the signed-in app (never on the public pages).
import '../live-handlers';
import { Footer } from './footer';
import { NavItems, type NavItem } from './nav-items';
import { SiteHeader } from './site-header';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

export const SIGNED_OUT_LINKS: readonly NavItem[] = [
  { label: 'Login', to: '/login' },
  { label: 'Sign Up', to: '/signup' },
];

/** Header nav for visitors (what SessionNav shows when nobody is signed in). */
export function SignedOutNav() {
  return <NavItems items={SIGNED_OUT_LINKS} />;
}

export interface AppLayoutProps {
  /** The header's nav content; defaults to the signed-out links. */
  nav?: ReactNode;
}

/** Layout of every non-marketing page (auth, generators, account, 404). */
export function AppLayout({ nav = <SignedOutNav /> }: AppLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader navLabel="App">{nav}</SiteHeader>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

/** The route component: the layout with the session-aware nav (loads the auth feature, never on marketing pages). */
export function SessionAppLayout() {
  return <AppLayout nav={<SessionNav signedOut={<SignedOutNav />} />} />;
}

export default SessionAppLayout;
