import { ButtonLink } from '../components/button-link';

function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
      <title>Page not found · Framewright</title>
      <p className="text-sm font-semibold text-brand-ink">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-ink">Page not found</h1>
      <p className="mt-3 text-ink-muted">The page you are looking for does not exist or has moved.</p>
      <ButtonLink to="/" className="mt-8">
        Back to home
      </ButtonLink>
    </section>
  );
}

export default NotFoundPage;
