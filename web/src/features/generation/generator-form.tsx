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
  submitting: boolean;
  /** The fields under the prompt, down to the running jobs. */
  children: ReactNode;
}

/** The sidebar's settings form: the prompt, the page's other fields, then the error line and the Generate button. */
export function GeneratorForm(props: GeneratorFormProps) {
  const { prompt, onPromptChange, placeholder, onGenerate, locked, error, submitLabel, submitDisabled, submitting, children } = props;
  const errorId = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    onGenerate();
  }

  return (
    <SidebarCard>
      <form onSubmit={onSubmit} noValidate aria-describedby={errorId} className="flex flex-col gap-5">
        <PromptField value={prompt} onChange={onPromptChange} onGenerate={onGenerate} disabled={locked} placeholder={placeholder} />
        {children}
        <div>
          <ErrorLine id={errorId} message={error} />
          <Button type="submit" size="lg" fullWidth disabled={submitDisabled} loading={submitting}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </SidebarCard>
  );
}
