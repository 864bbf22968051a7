/**
 * The app pages PayPal may send the buyer back to (POST /api/create-paypal-payment's returnPath): the pages that
 * offer Buy Credits, the pricing page (its packs buy through /buy) and the landing page. A fixed list, never a caller's URL, so the return cannot be turned into
 * an open redirect. Free of zod, so the web app can check a path without loading the schemas.
 */
export const PAYMENT_RETURN_PATHS = ['/', '/pricing', '/generator', '/video-generator/wan', '/video-generator/pixverse', '/admin'] as const;
export type PaymentReturnPathValue = (typeof PAYMENT_RETURN_PATHS)[number];

/** Where the buyer comes back when the payment was started without a returnPath (and for unknown orders). */
export const DEFAULT_PAYMENT_RETURN_PATH: PaymentReturnPathValue = '/';

export function isPaymentReturnPath(path: unknown): path is PaymentReturnPathValue {
  return (PAYMENT_RETURN_PATHS as readonly unknown[]).includes(path);
}
