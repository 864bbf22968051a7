import { useLocation } from 'react-router-dom';
import { ButtonLink } from '../components/button-link';
import { EmptyState } from '../components/empty-state';

/**
 * TEMPORARY stand-in for /generator (image generator feature) and /video-generator/* (video generator
 * feature), so the guarded routes exist before those features land. Delete it when they replace their
 * routes in router.tsx.
 */
export function PendingFeaturePage() {
  const { pathname } = useLocation();
  const name = pathname.startsWith('/video-generator') ? 'video generator' : 'image generator';
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center px-4 py-16 sm:px-6">
      <EmptyState
        title={`The ${name} is not available yet.`}
        description="Your account and credits are ready. Check My Account in the meantime."
        action={<ButtonLink to="/admin">My Account</ButtonLink>}
      />
    </section>
  );
}

export default PendingFeaturePage;
