/**
 * Every AWS SDK client's request handler bounds (its `requestHandler` option): without them the SDK waits on a
 * connection or an answer for ever, and one stuck call holds its function until Lambda kills it (25-29 s), with
 * whatever it was doing half done. The numbers are set against those timeouts: a call, with the SDK's retries
 * (3 attempts, DynamoDB 5) and their backoff, gives up well inside its function.
 *
 * - connectionTimeout: connecting (TCP and TLS) to a regional endpoint takes milliseconds; 2 s is a dead endpoint.
 * - requestTimeout: sending the request until the answer's headers arrive (thrown as a TimeoutError, which the
 *   SDK retries). DynamoDB answers in milliseconds: 4 s (a loaded local emulator pauses a second or two), so 5
 *   attempts with their backoff stay under 22 s. S3's includes sending a 5 MB upload part (well under a second
 *   in-region): 7 s, 3 attempts under 22 s. The others (SES, Cognito, Secrets Manager, @connections): 5 s.
 * - socketTimeout: a socket idle this long (an answer's body that stops arriving) is closed: the same number.
 */
export function requestHandlerWithin(requestTimeoutMs: number) {
  return { connectionTimeout: 2_000, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true, socketTimeout: requestTimeoutMs };
}

export const DYNAMODB_REQUEST_MS = 4_000;
export const S3_REQUEST_MS = 7_000;
export const OTHER_AWS_REQUEST_MS = 5_000;
