import { refreshCredits } from './balance';

export interface CreditsLoadErrorProps {
  /** Why the balance could not be loaded (`useCredits().error`). */
  error: string;
  /** A paragraph announced at once (the generators' credits box); otherwise an inline span (the header's balance). */
  alert?: boolean;
  className?: string;
}

/** The balance's load error with a Retry that asks the server again. */
export function CreditsLoadError({ error, alert = false, className }: CreditsLoadErrorProps) {
  const Tag = alert ? 'p' : 'span';
  return (
    <Tag role={alert ? 'alert' : undefined} className={className}>
      {error}
      <button type="button" onClick={() => void refreshCredits()} className="rounded-control underline hover:text-ink">
        Retry
      </button>
    </Tag>
  );
}
