import { Link } from 'react-router-dom';
import { LogoMark } from '../../components/logo';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line bg-canvas">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-8 text-sm text-ink-subtle sm:flex-row sm:px-6">
        <Link to="/" className="inline-flex items-center gap-2 rounded-control text-ink-muted hover:text-ink">
          <LogoMark className="size-5" />
          <span className="sr-only">Framewright home</span>
        </Link>
        <div className="flex flex-col items-center gap-2 sm:flex-row sm:gap-6">
          <Link to="/terms" className="rounded-control hover:text-ink">
            Terms and Conditions
          </Link>
          <p>© {year} Framewright. All rights reserved.</p>
        </div>
      </div>
    </footer>
  );
}
