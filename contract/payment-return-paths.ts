/**
 * The app pages PayPal may send the buyer back to (POST /api/create-paypal-payment's returnPath): the pages that
 * offer Buy Credits, the pricing page (its packs buy through /buy) and the landing page. A fixed list, never a caller's URL, so the return cannot be turned into
 * an open redirect. Free of zod, so the web app can check a path without loading the schemas.
 */
import { VIDEO_MODELS } from './models';

/** Each available video model's generator is its registry slug's page, so a model added is a page to come back to. */
export const PAYMENT_RETURN_PATHS = [
  '/',
  '/pricing',
  '/generator',
  ...VIDEO_MODELS.filter((m) => !m.upcoming).map((m) => `/video-generator/${m.slug}`),
  '/admin',
] as [string, ...string[]];
export type PaymentReturnPathValue = string;

/** Where the buyer comes back when the payment was started without a returnPath (and for unknown orders). */
export const DEFAULT_PAYMENT_RETURN_PATH: PaymentReturnPathValue = '/';

export function isPaymentReturnPath(path: unknown): path is PaymentReturnPathValue {
  return (PAYMENT_RETURN_PATHS as readonly unknown[]).includes(path);
}

/**
 * The public return from PayPal's subscription pages (GET /api/paypal/subscription-return) knows only the page to go
 * back to, which we put in the return and cancel URLs we give PayPal (`?to=<path>`, one of PAYMENT_RETURN_PATHS): it
 * reads nothing, changes nothing and always lands on that page with this one marker, whatever subscription the link
 * names. The page, signed in, asks GET /api/subscription for the plan's real status.
 */
export const SUBSCRIPTION_RETURN_PARAM = 'subscription';
export const SUBSCRIPTION_RETURNED = 'returned';

/** Where the return sends the browser: the page with the neutral marker. */
export function subscriptionReturnPath(path: PaymentReturnPathValue): string {
  return `${path}?${SUBSCRIPTION_RETURN_PARAM}=${SUBSCRIPTION_RETURNED}`;
}

/** The return and cancel URL we give PayPal for a subscription or a plan change started on `path`. */
export function subscriptionReturnUrl(appUrl: string, path: PaymentReturnPathValue): string {
  return `${appUrl.replace(/\/+$/, '')}/api/paypal/subscription-return?${new URLSearchParams({ to: path }).toString()}`;
}
