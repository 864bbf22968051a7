import type { KeyboardEvent } from 'react';
import { MAX_PROMPT_LENGTH } from '../../../../contract/catalog';
import { TextAreaField } from '../../components/text-field';

export interface PromptFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl+Enter (Cmd+Enter on a Mac) generates, like the submit button. */
  onGenerate: () => void;
  disabled: boolean;
  placeholder: string;
}

/** A generator's prompt: the catalog's length limit with a counter, and Ctrl+Enter to generate (hinted where there are keys). */
export function PromptField({ value, onChange, onGenerate, disabled, placeholder }: PromptFieldProps) {
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      onGenerate();
    }
  }

  return (
    <TextAreaField
      label="Prompt"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
      disabled={disabled}
      maxLength={MAX_PROMPT_LENGTH}
      rows={5}
      placeholder={placeholder}
      hint={
        <>
          {value.length}/{MAX_PROMPT_LENGTH}
          {/* A touch screen has no Ctrl key: the hint shows only where the main pointer is precise (a mouse). */}
          <span className="pointer-coarse:hidden" data-testid="keyboard-hint">
            {' '}
            · Ctrl+Enter to generate
          </span>
        </>
      }
    />
  );
}
