/**
 * The prompt policy (docs/prompt-policy.md) before the charge: a prompt or negative prompt that asks for forbidden
 * content is refused here, so no credit moves and nothing reaches the provider (who would bill the run before its
 * own safety check refused it). Each refusal is counted: a burst is alarmed.
 */
import { Messages } from '../../../contract/errors';
import { InvalidInput } from '../../domain/errors';
import { promptPolicyBreach } from '../../domain/prompt-policy';
import { BusinessMetric, type Metrics } from '../../ports/metrics';

export interface CheckPromptDeps {
  metrics: Metrics;
}

export function checkPrompt(deps: CheckPromptDeps, prompt: string, negativePrompt?: string): void {
  const breach = promptPolicyBreach(prompt, negativePrompt);
  if (!breach) return;
  deps.metrics.count(BusinessMetric.PromptRefused, 1);
  throw new InvalidInput(Messages.promptNotAllowed, { policy: breach });
}
