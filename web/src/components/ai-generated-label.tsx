import { aiGeneratedLabel } from '../../../contract/ai-label';
import type { Operation } from '../../../contract/models/types';
import { cx } from '../lib/cx';
import { formatDate } from '../lib/format-date-time';

/**
 * "AI-generated with <model> on <date>" (the viewer's local date), or for an operation's result "Upscaled with
 * <model> ..." (contract/ai-label.ts), as a badge beside a result shown to people.
 */
export function AiGeneratedLabel({ modelName, madeAt, operation, className, testId }: { modelName: string; madeAt: string; operation?: Operation; className?: string; testId?: string }) {
  return (
    <p className={cx('w-fit rounded-full border border-line px-2 py-0.5 text-xs font-semibold text-brand-ink', className)} data-testid={testId}>
      {aiGeneratedLabel(modelName, formatDate(madeAt, ''), operation)}
    </p>
  );
}
