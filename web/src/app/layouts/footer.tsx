import { LogoMark } from '../../components/logo';
import { AppLink } from '../../lib/navigation';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line bg-canvas">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-8 text-sm text-ink-subtle sm:flex-row sm:px-6">
        <AppLink to="/" className="inline-flex items-center gap-2 rounded-control text-ink-muted hover:text-ink">
          <LogoMark className="size-5" />
          <span className="sr-only">Framewright home</span>
        </AppLink>
        <div className="flex flex-col items-center gap-2 sm:flex-row sm:gap-6">
          <AppLink to="/terms" className="rounded-control hover:text-ink">
            Terms and Conditions
          </AppLink>
          <p>© {year} Framewright. All rights reserved.</p>
        </div>
      </div>
    </footer>
  );
}
