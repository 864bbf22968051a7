/**
 * The marketing feature's public interface, for other features: prices as the site shows them (prices.ts, which
 * imports only contract/), so the generators label and price things as the pricing page does; the sign-in pages' clip
 * with whether it is a placeholder (media.ts). The pages are loaded
 * by path (web/src/app/public-pages.ts) and are not exported here.
 */
export { AUTH_CLIP } from './media';
export { credits, familyCostRange, generateLabel, generateVideoLabel, modelFor, priceOf, qualityFor } from './prices';
