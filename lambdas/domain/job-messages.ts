/**
 * What a user reads when a job fails: a reason in plain words (never a provider's field path, traceback or
 * status name) and how many credits came back.
 */
import { Messages } from '../../contract/errors';
import { MEDIA_KINDS, type MediaKind } from '../../contract/media-kinds';

/** The spec's fallbacks: 'Image generation failed' and 'Video generation failed'. */
export const fallbackReason = (kind: MediaKind) => MEDIA_KINDS[kind].failed;

/** A failed job's error: the reason and the refund ("Video generation failed. 8 credits refunded."). */
export const refundedError = (reason: string, cost: number) => Messages.jobRefunded(reason, cost);

/**
 * The provider's error for a prediction that ran and failed. Its texts are model internals (tracebacks, CUDA,
 * "Prediction failed: ..."), so only the safety checker's verdict, which the user can act on, is passed on in our
 * words; anything else is the spec's fallback.
 */
export function reasonOfProviderError(error: string | undefined, kind: MediaKind): string {
  if (error && /nsfw|unsafe|safety checker/i.test(error)) return Messages.resultUnsafe;
  return fallbackReason(kind);
}

/**
 * A refusal at create (422), which the user can fix: Replicate lists the fields as "- input.prompt: <why>" lines;
 * the field paths are dropped and the reasons kept.
 */
export function humanRefusal(detail: string | undefined): string {
  const reasons = (detail ?? '')
    .split('\n')
    .map((line) => line.replace(/^\s*-?\s*(?:input\.)?[\w.[\]]+:\s*/, '').trim())
    .filter(Boolean)
    .map((r) => r.charAt(0).toUpperCase() + r.slice(1));
  return reasons.length ? reasons.join(' ') : 'The model refused this request.';
}
