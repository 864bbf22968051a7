import { PAYMENT_RETURN_PATHS } from './payment-return-paths';

/**
 * Error codes the API returns, with the user-visible text from the product spec.
 * Every error body is `{ error: message, code }` so the web client can show `error` as is.
 */
export const ErrorCode = {
  InvalidInput: 'INVALID_INPUT',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  NotEnoughCredits: 'NOT_ENOUGH_CREDITS',
  Conflict: 'CONFLICT',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  RateLimited: 'RATE_LIMITED',
  ProviderError: 'PROVIDER_ERROR',
  Unavailable: 'UNAVAILABLE',
  /** An Idempotency-Key used again with another request body. */
  IdempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  /** The first call with this Idempotency-Key is still running: retry in a moment. */
  IdempotencyInProgress: 'IDEMPOTENCY_IN_PROGRESS',
  Internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const httpStatusOf: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  NOT_ENOUGH_CREDITS: 402,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  PROVIDER_ERROR: 502,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** The spec's messages (sections 4, 5 and 8), verbatim. */
export const Messages = {
  unauthorized: 'Unauthorized',
  /** Not in the spec: any signed-in call made with a token issued before the account was deleted (401). */
  accountDeleted: 'This account has been deleted.',
  signInToGenerateImages: 'Please sign in to generate images.',
  signIn: 'Please sign in.',
  enterPrompt: 'Please enter a prompt!',
  promptRequired: 'Prompt is required.',
  notEnoughCredits: (cost: number) => `Not enough credits. Required: ${cost}`,
  promptTooLong: (max: number) => `Prompt is too long. Keep it under ${max} characters.`,
  imageTooLarge: 'Image must be under 5MB.',
  invalidImage: 'Invalid file type or size. Image must be under 5MB.',
  noPredictionId: 'No prediction ID returned from server.',
  imageGenerationFailed: 'Image generation failed',
  videoGenerationFailed: 'Video generation failed',
  unknownError: 'Unknown error',
  fillAllFields: 'Please fill in all fields.',
  invalidEmail: 'Please enter a valid email address.',
  contactSent: "Message sent successfully! We'll reply within 48 hours.",
  contactFailed: 'Failed to send message.',
  notFound: 'Not found.',
  tooManyRequests: 'Too many requests. Please try again later.',
  /** Not in the spec: the per-user daily generation cap (DAILY_GENERATION_CAP) was reached; no credits were charged. */
  dailyGenerationCap: (cap: number) =>
    `You have reached today's limit of ${cap} generations. No credits were charged. Please try again tomorrow (the limit resets at 00:00 UTC).`,
  invalidPack: 'Choose one of the credit packs.',
  /**
   * Not in the spec: a pack or plan ordered without `withdrawalConsent: true`. EU consumers may withdraw from a digital
   * purchase for 14 days unless, before supply, they ask for it at once and acknowledge losing that right.
   */
  withdrawalConsentRequired:
    'Please confirm that you want your credits now and that you lose your 14-day right of withdrawal once you use them.',
  /** PAYMENT_RETURN_PATHS spelled out for the caller: 'returnPath must be one of /, /generator, ... or /admin.' */
  invalidReturnPath: `returnPath must be one of ${PAYMENT_RETURN_PATHS.slice(0, -1).join(', ')} or ${PAYMENT_RETURN_PATHS.at(-1)}.`,
  paymentUnavailable: 'PayPal is not available right now. Please try again in a few minutes.',
  // ---- plans (PayPal Subscriptions) ----
  /** Not in the spec: POST /api/subscriptions or /api/subscription/change without one of contract/plans. */
  invalidPlan: 'Choose one of the plans.',
  /** Not in the spec: subscribing while a plan is active or suspended (change it, or cancel it first). */
  alreadySubscribed: 'You already have a plan. Change it or cancel it in My Account.',
  /** Not in the spec: cancel or change without an active or suspended plan. */
  noSubscription: 'You have no active plan.',
  /** Not in the spec: changing to the plan one already has. */
  samePlan: 'This is already your plan.',
  /** Not in the spec: PayPal suspended the plan after failed payments (shown in My Account). */
  subscriptionSuspended:
    'PayPal could not take your monthly payment, so your plan is paused and no plan credits are added. Update your payment method in your PayPal account (Settings > Payments > Automatic payments); your plan resumes when PayPal is paid.',
  /** Not in the spec: a payment failed and PayPal will retry it. */
  subscriptionPaymentFailed: (retryAt: string) =>
    `PayPal could not take your monthly payment. It will try again on ${retryAt}; check the payment method in your PayPal account (Settings > Payments > Automatic payments).`,
  invalidWebhookSignature: 'Invalid webhook signature.',
  /** Not in the spec (a provider reads it): a copy of a delivery another call is handling; the provider retries it later. */
  webhookInProgress: 'This delivery is being handled. Send it again later.',
  invalidCursor: 'This page of results is no longer valid. Reload the list.',
  invalidLimit: 'limit must be a whole number from 1 to 100.',
  /** Payments as the web shows them: return messages and the initiation error. */
  paymentInitError: (reason: string) => `Error initiating payment: ${reason}`,
  paymentAdded: (n: number) => `Payment successful! Added ${n} credits.`,
  paymentAddedToUser: (credits: number, userId: string) => `Payment successful! ${credits} credits added to user ${userId}.`,
  paymentCanceled: 'Payment canceled.',
  paymentWasCanceled: 'Payment was canceled.',
  paymentUserMismatch: 'Payment successful, but user ID mismatch. Credits not added.',
  /** Not in the spec: the server could not confirm the payment (unknown, unapproved or refused order). */
  paymentFailed: 'We could not confirm this payment, so no credits were added. If you were charged, please contact support.',
  /** Not in the spec: PayPal has not completed the capture yet; its webhook will credit the account. */
  paymentPending: 'Your payment is being confirmed by PayPal. Your credits will appear shortly.',
  /** Not in the spec: a refund or chargeback took back credits that were already spent */
  negativeBalance: 'Your credit balance is below zero because a payment was refunded or reversed. Buy credits to generate again.',
  /** Not in the spec: GET /api/payment-outcome for an order we do not have. */
  unknownOrder: 'There is no such payment.',
  invalidJson: 'The request body must be valid JSON.',
  payloadTooLarge: 'Request is too large.',
  /** Not in the spec: what a malformed request gets (no form or client of ours sends one). */
  jsonTooDeep: (max: number) => `The request body nests arrays and objects more than ${max} levels deep.`,
  jsonOnly: 'Send the request body as JSON (Content-Type: application/json).',
  invalidUnicode: 'The request body has text that is not valid Unicode.',
  invalidPathId: 'This id is not valid: ids are 1 to 64 letters, digits, "-" or "_".',
  internal: 'Something went wrong on our side. Please try again.',
  /** Not in the spec: a store or service we depend on (the database) cannot be reached for a moment. */
  serviceUnavailable: 'Service temporarily unavailable. Please try again in a moment.',
  // ---- video generation ----
  chooseVideoModel: 'Choose a video model.',
  videoDurationRequired: 'Choose a duration in whole seconds.',
  videoQualityInvalid: 'Choose a quality.',
  /** Not in the spec: a generation option of the wrong type (its allowed values come from the model registry). */
  optionInvalid: (option: string) => `${option} has an invalid value.`,
  /** Not in the spec: a request field no route takes. */
  unknownFields: (keys: readonly string[], allowed: readonly string[]) =>
    `Unknown option${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}. Allowed: ${allowed.join(', ')}.`,
  /**
   * Not in the spec: POST /api/generate-video named (by its Replicate id) the model an entry runs only with a start
   * image, without one (or the other way round); `runs` is the model the entry runs for this request.
   */
  startImageNeeded: (model: string, name: string, runs: string) => `${model} needs a start image: without one, ${name} runs ${runs}.`,
  startImageNotTaken: (model: string, name: string, runs: string) => `${model} takes no start image: with one, ${name} runs ${runs}.`,
  /** Not in the spec: the queue is full (MAX_ACTIVE_JOBS running); nothing was charged. */
  tooManyActiveJobs: (max: number) => `You already have ${max} generations running. Wait for one to finish or cancel one; no credits were charged.`,
  /** Not in the spec: cancelling a job the provider has begun running (it bills the run). */
  cancelSpendsCredits: (credits: number) =>
    `This generation is already running: the generation service bills it, so canceling now does not refund its ${credits} credit${credits === 1 ? '' : 's'}. Cancel anyway?`,
  /** Not in the spec: a job canceled after the provider began running it. */
  canceledNoRefund: (credits: number) => `The generation was canceled. Its ${credits} credit${credits === 1 ? ' was' : 's were'} spent: the generation service had already started it.`,
  jobAlreadyEnded: 'This generation has already finished.',
  /** Not in the spec: the prompt policy (docs/prompt-policy.md) refused the prompt or negative prompt before any charge. */
  promptNotAllowed: 'This prompt asks for content our content policy does not allow, so it was not sent. No credits were charged.',
  jobNotFound: 'Job not found.',
  /** Not in the spec: a media item of the caller's that does not exist (or is another user's). */
  mediaNotFound: 'This item does not exist or was already deleted.',
  collectionNotFound: 'This collection does not exist.',
  invalidCollectionName: (max: number) => `A collection name is 1 to ${max} characters.`,
  tooManyCollections: (max: number) => `You can have at most ${max} collections.`,
  startMediaNotImage: 'Only an image can be a start image.',
  startImageTwice: 'Give either a start image upload or a start media item, not both.',
  // ---- one generation pipeline ----
  chooseModel: 'Choose a model.',
  /** Not in the spec: POST /api/generations names no model of GET /api/models. */
  unknownModel: (model: string, known: readonly string[]) => `Unknown model: ${model}. Models: ${known.join(', ')}.`,
  modelComingSoon: (name: string) => `${name} is coming soon.`,
  modelTakesNoPrompt: (name: string) => `${name} takes no prompt.`,
  modelTakesNoImage: (name: string, input: string, taken: readonly string[]) =>
    `${name} takes no ${input}.${taken.length ? ` Its inputs: ${taken.join(', ')}.` : ''}`,
  imageInputRequired: (name: string, label: string, input: string) => `${name} needs ${label.toLowerCase()} (inputs.${input}).`,
  imageInputResultOnly: (label: string) => `${label} must be one of your results (its media id).`,
  imageInputInvalid: (input: string) => `inputs.${input} must be the media id of one of your results or the key of an upload.`,
  /** Variations of a video, or of a result whose model is no longer offered. */
  cannotVary: 'Only an image made by a model we offer can be varied.',
  // ---- why a job failed (each followed by jobRefunded's count) ----
  generationUnavailable: 'The generation service is unavailable. Please try again',
  generationBusy: 'The generation service is busy right now. Please try again in a minute',
  generationCanceled: 'The generation was canceled',
  generationTookTooLong: 'The generation took too long and was stopped',
  generationNotConfirmed: 'The generation service did not confirm the job',
  generationLost: 'The generation service lost this job',
  resultRemoved: 'The result was removed by the generation service before it could be saved',
  resultTooLarge: 'The result was too large to save',
  /** Not in the spec: an output that is not a whole, readable file of the type the model promises. */
  resultDamaged: 'The result arrived damaged or incomplete and could not be saved',
  /** Not in the spec: a video whose length is not the one asked for. */
  resultWrongLength: 'The video did not have the length you asked for',
  /** Not in the spec: a recorded output that could not be copied before the job's maximum time ran out. */
  resultNotSaved: 'The result could not be saved in time',
  resultUnsafe: 'The result was flagged as unsafe. Try a different prompt',
  // ---- the gallery, share links and deleting an account ----
  invalidModelFilter: (slugs: readonly string[]) => `model must be one of ${slugs.join(', ')}.`,
  invalidFavoriteFilter: 'favorite must be true or false.',
  /** Not in the spec: the gallery's prompt search. */
  searchTooLong: (max: number) => `Search is too long. Keep it under ${max} characters.`,
  invalidShowPrompt: 'showPrompt must be true or false.',
  /** DELETE /api/me with a sign-in older than FRESH_SIGN_IN_SECONDS. */
  confirmPasswordToDelete: 'For your safety, confirm your password again to delete your account.',
  /** DELETE /api/me while a generation of the account is still running (its result would be saved after the deletion). */
  deleteWhileRunning: 'A generation is still running. Wait until it ends, then delete your account.',
  accountBeingDeleted: 'This account is being deleted.',
  /** Not in the spec: DELETE /api/me while PayPal cannot be reached to cancel the account's plan (nothing is erased). */
  deletePlanUnavailable: 'Your plan could not be cancelled at PayPal right now, so your account was not deleted. Please try again in a few minutes.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
  idempotencyKeyReused: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  /** Not in the spec: a key is per route, so the same key sent to another route is a client's mistake. */
  idempotencyKeyOtherRoute: 'This Idempotency-Key was already used for a different kind of request. Use a new key for a new request.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed. Try again in a moment.',
  resultUnreadable: 'The video could not be processed',
  /** A failed job's error: why, then how many credits came back ("Video generation failed. 8 credits refunded."). */
  /** Not in the spec: a batch delivered the images that succeeded; the failed ones' credits came back. */
  batchPartlyFailed: (failed: number, of: number, credits: number) =>
    `${failed} of ${of} images could not be made. ${credits} credit${credits === 1 ? '' : 's'} refunded.`,
  jobRefunded: (reason: string, credits: number) => `${reason.replace(/[.\s]+$/, '')}. ${credits} credit${credits === 1 ? '' : 's'} refunded.`,
} as const;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
}
