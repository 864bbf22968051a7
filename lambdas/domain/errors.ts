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
