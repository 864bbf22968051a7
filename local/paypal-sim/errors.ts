/**
 * How the simulator answers JSON (with paypal-debug-id, as PayPal does), PayPal's error responses ({name, message,
 * debug_id, details, links}) and the issues their details list.
 */
import type { ServerResponse } from 'node:http';
import { sendJsonText } from '../shared/http';
import { debugId } from './ids';
import { isRecord, type Json, type PaypalErrorBody, type PaypalIssue, type SimLink } from './types';

const MSG = {
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  UNPROCESSABLE_ENTITY: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  AUTHENTICATION_FAILURE: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
} as const;

function errorLink(anchor: string): SimLink {
  return { href: `https://developer.paypal.com/docs/api/orders/v2/#error-${anchor}`, rel: 'information_link', method: 'GET' };
}

/** JSON as PayPal sends it; a string `body` is JSON already (a stored response or event, sent byte for byte). */
export function sendPaypalJson(res: ServerResponse, status: number, body: unknown, debug = debugId()): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  sendJsonText(res, status, text, {
    'paypal-debug-id': isRecord(body) && typeof body.debug_id === 'string' ? body.debug_id : debug,
    'cache-control': 'no-store',
  });
}

export class PaypalError extends Error {
  constructor(
    readonly status: number,
    readonly body: PaypalErrorBody,
  ) {
    super(body.message);
  }
}

export function apiError(status: number, name: keyof typeof MSG | string, details?: PaypalIssue[], message?: string): PaypalError {
  const msg = message ?? (MSG as Record<string, string>)[name] ?? name;
  const body: PaypalErrorBody = {
    name,
    message: msg,
    debug_id: debugId(),
    ...(details && details.length ? { details } : {}),
    links:
      details && details[0]
        ? [errorLink(details[0].issue)]
        : [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link', method: 'GET' }],
  };
  return new PaypalError(status, body);
}

export const notFound = (field: string, value: string, location: 'path' | 'body' = 'path') =>
  apiError(404, 'RESOURCE_NOT_FOUND', [
    { field, value, location, issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' },
  ]);

/** 400 for a body that is not JSON (or not a JSON object). */
export const malformedJson = () =>
  apiError(400, 'INVALID_REQUEST', [
    { field: '/', location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
  ]);

/** Validation findings: `bad` are schema problems (400 INVALID_REQUEST), `unprocessable` business ones (422). */
export interface Findings {
  bad: PaypalIssue[];
  unprocessable: PaypalIssue[];
}

export const issue = (field: string, value: unknown, code: string, description: string): PaypalIssue => ({
  field,
  ...(value === undefined ? {} : { value: typeof value === 'string' ? value : JSON.stringify(value) }),
  location: 'body',
  issue: code,
  description,
});
export const missing = (field: string) => issue(field, undefined, 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');

/** A request body that must be a JSON object: anything else is PayPal's MALFORMED_REQUEST_JSON. */
export function jsonObject(text: string): Json {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw malformedJson();
  }
  if (!isRecord(body)) throw malformedJson();
  return body;
}

/** An absolute http(s) URL as PayPal takes for return and cancel URLs, or an INVALID_PARAMETER_SYNTAX finding. */
export function httpUrl(v: string, path: string, f: Findings): string | undefined {
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v;
  } catch {
    // not a URL at all: the same finding
  }
  f.bad.push(issue(path, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format (an absolute http(s) URL).'));
  return undefined;
}
