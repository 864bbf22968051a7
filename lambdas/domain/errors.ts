import { ErrorCode, Messages } from '../../contract/errors';

/** A domain error: carries the user-visible message (the spec's wording) and its code. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInput extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.InvalidInput, message, details);
  }
}
export class Unauthorized extends AppError {
  constructor(message: string = Messages.unauthorized) {
    super(ErrorCode.Unauthorized, message);
  }
}
export class NotFound extends AppError {
  constructor(message: string = Messages.notFound) {
    super(ErrorCode.NotFound, message);
  }
}
export class NotEnoughCredits extends AppError {
  constructor(
    readonly required: number,
    message: string = Messages.notEnoughCredits(required),
  ) {
    super(ErrorCode.NotEnoughCredits, message, { required });
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(ErrorCode.Conflict, message);
  }
}
export class RateLimited extends AppError {
  constructor(message: string = Messages.tooManyRequests, details?: { retryAfterSeconds: number }) {
    super(ErrorCode.RateLimited, message, details);
  }
}
export class ProviderError extends AppError {
  constructor(message: string) {
    super(ErrorCode.ProviderError, message);
  }
}

/**
 * A job's refund that could not be written (its owner's account is gone, or the change never settled): not a user's
 * error but ours, so a 5xx where a caller waits, logged and counted (BusinessMetric.RefundNotLanded, alarmed), and the
 * job stays open for the next attempt. Never reported as refunded.
 */
export class RefundNotLanded extends Error {
  constructor(
    readonly jobId: string,
    readonly why: string,
  ) {
    super(`The refund of job ${jobId} did not land: ${why}`);
    this.name = 'RefundNotLanded';
  }
}
