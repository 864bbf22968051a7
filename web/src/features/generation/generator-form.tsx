import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { ErrorLine, SidebarCard } from './generator-shell';
import { PromptField } from './prompt-field';

export interface GeneratorFormProps {
  prompt: string;
  onPromptChange: (prompt: string) => void;
  placeholder: string;
  /** Submitting the form, or Ctrl+Enter in the prompt. */
  onGenerate: () => void;
  /** Locks the prompt (the page locks its other fields itself). */
  locked: boolean;
  /** The error line above the button; the form is described by it. */
  error: string | undefined;
  submitLabel: ReactNode;
  submitDisabled: boolean;
  /** Why Generate is disabled, shown beside it (`generateBlockedReason`). */
  disabledReason?: string;
  submitting: boolean;
  /** The fields under the prompt, down to the running jobs. */
  children: ReactNode;
}

/** The sidebar's settings form: the prompt, the page's other fields, then the error line and the Generate button. */
export function GeneratorForm(props: GeneratorFormProps) {
  const { prompt, onPromptChange, placeholder, onGenerate, locked, error, submitLabel, submitDisabled, disabledReason, submitting, children } = props;
  const errorId = useId();
  const reasonId = useId();
  const reason = submitDisabled && !submitting ? disabledReason : undefined;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    onGenerate();
  }

  return (
    <SidebarCard>
      <form onSubmit={onSubmit} noValidate aria-describedby={errorId} className="flex flex-col gap-5">
        <PromptField value={prompt} onChange={onPromptChange} onGenerate={onGenerate} disabled={locked} placeholder={placeholder} />
        {children}
        {/* Below the desktop layout the options push Generate down: it sticks to the screen's bottom edge while the form
            is in view, so it is reachable without scrolling on a phone. */}
        <div className="max-lg:sticky max-lg:bottom-0 max-lg:z-10 max-lg:-mx-4 max-lg:-mb-4 max-lg:rounded-b-card max-lg:border-t max-lg:border-line max-lg:bg-surface max-lg:px-4 max-lg:py-3 sm:max-lg:-mx-5 sm:max-lg:-mb-5 sm:max-lg:px-5">
          <ErrorLine id={errorId} message={error} />
          <Button type="submit" size="lg" fullWidth disabled={submitDisabled} loading={submitting} aria-describedby={reason ? reasonId : undefined}>
            {submitLabel}
          </Button>
          {reason && (
            <p id={reasonId} className="mt-2 text-sm text-ink-muted" data-testid="generate-blocked-reason">
              {reason}
            </p>
          )}
        </div>
      </form>
    </SidebarCard>
  );
}
