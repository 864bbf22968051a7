/**
 * The prompt policy (docs/prompt-policy.md) before the charge: a prompt or negative prompt that asks for forbidden
 * content is refused here, so no credit moves and nothing reaches the provider (who would bill the run before its
 * own safety check refused it). Each refusal is counted: a burst is alarmed. Every model and operation starts through
 * startJob, so every one is checked here: a prompt said of a picture the caller gave (an edit, an image-to-image or
 * image-to-video start) is held to the rules on pictures of people as well; an upscale carries its source's prompt,
 * and a variation reruns it, both checked again as text.
 */
import { Messages } from '../../../contract/errors';
import { InvalidInput } from '../../domain/errors';
import { promptPolicyBreach } from '../../domain/prompt-policy';
import { BusinessMetric, type Metrics } from '../../ports/metrics';

export interface CheckPromptDeps {
  metrics: Metrics;
}

export function checkPrompt(deps: CheckPromptDeps, prompt: string, negativePrompt?: string, onPicture = false): void {
  const breach = promptPolicyBreach(prompt, negativePrompt, { onPicture });
  if (!breach) return;
  deps.metrics.count(BusinessMetric.PromptRefused, 1);
  throw new InvalidInput(Messages.promptNotAllowed, { policy: breach });
}
