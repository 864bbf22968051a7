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
