/**
 * The header nav of non-marketing pages, from the session:
 * signed in: Image Generator, Video Generator, My Account, Logout (signs out, goes to /login) and the
 * credit balance; signed out: Login, Sign Up; while the session is checked: nothing, so neither set
 * flashes up.
 */
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { NavItems, type NavItem } from '../../app/layouts/nav-items';
import { CreditBalance } from '../credits';
import { signOut, useSession } from './session-store';

export const SIGNED_IN_LINKS: readonly NavItem[] = [
  { label: 'Image Generator', to: '/generator' },
  { label: 'Video Generator', to: '/video-generator' },
  { label: 'My Account', to: '/admin' },
];

export interface SessionNavProps {
  /** What visitors see (the layout's Login and Sign Up links). */
  signedOut: ReactNode;
}

export function SessionNav({ signedOut }: SessionNavProps) {
  const { status } = useSession();
  const navigate = useNavigate();

  if (status === 'loading') return <span aria-hidden="true" className="block h-9" />;
  if (status === 'signedOut') return <>{signedOut}</>;

  const logout = async () => {
    try {
      await signOut();
    } finally {
      navigate('/login', { replace: true });
    }
  };
  return (
    <div className="flex flex-col gap-2 md:flex-row md:items-center md:gap-3">
      <NavItems items={[...SIGNED_IN_LINKS, { label: 'Logout', onSelect: () => void logout() }]} />
      <CreditBalance className="rounded-pill border border-line bg-surface px-3 py-1 md:order-first" />
    </div>
  );
}
