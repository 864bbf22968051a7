/**
 * The business metrics the functions emit (lambdas/observability.ts, through the metered ports) and the alarms and
 * dashboard read (lib/constructs/observability.ts): one list, so a renamed metric cannot leave an alarm watching nothing.
 */
export const METRICS_NAMESPACE = 'Framewright';

export const BusinessMetric = {
  JobStarted: 'JobStarted',
  JobSucceeded: 'JobSucceeded',
  JobFailed: 'JobFailed',
  JobRefunded: 'JobRefunded',
  /** Jobs the reconciler had to refund (their webhook and polls never settled them). */
  ReconcilerRefund: 'ReconcilerRefund',
  /** Generations refused by the per-user daily cap. */
  DailyCapReached: 'DailyCapReached',
  CreditsSold: 'CreditsSold',
  /** Credits taken back by PayPal refunds and reversals (claw-backs). */
  CreditsClawedBack: 'CreditsClawedBack',
  WebhookSignatureFailure: 'WebhookSignatureFailure',
  /** Generations refused by the prompt policy before any charge (docs/prompt-policy.md): a burst is alarmed. */
  PromptRefused: 'PromptRefused',
  /** Calls to Replicate's API that create a prediction, against its create limit (contract/capacity.ts). */
  ProviderCreates: 'ProviderCreates',
  /** Every other call to Replicate's API (reads, lists, cancels), against its limit for the rest. */
  ProviderOtherRequests: 'ProviderOtherRequests',
  /**
   * What Replicate charged us for each ended prediction, in US cents, by model (`predict_time` > 0: it ran; an aborted
   * prediction costs nothing): a failure it billed counts too.
   */
  ProviderCostCents: 'ProviderCostCents',
  /** What a succeeded job's credits are worth, in US cents at the cheapest pack's price per credit, by model. */
  RevenueCents: 'RevenueCents',
  /** A job's refund that could not be written (the job stays open and is retried): never expected, always alarmed. */
  RefundNotLanded: 'RefundNotLanded',
  /**
   * Completed plan payments (sales) PayPal took an hour ago or more that the plans' reconciler still could not grant,
   * emitted by each of its runs (0 when none): never expected, always alarmed.
   */
  PlanSalesUngranted: 'PlanSalesUngranted',
} as const;
export type BusinessMetric = (typeof BusinessMetric)[keyof typeof BusinessMetric];
