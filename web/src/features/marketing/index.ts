/**
 * The marketing feature's public interface, for other features: prices as the site shows them (prices.ts, which
 * imports only contract/), so the generators label and price things as the pricing page does. The pages are loaded
 * by path (web/src/app/public-pages.ts) and are not exported here.
 */
export { credits, familyCostRange, generateLabel, generateVideoLabel, modelFor, priceOf, qualityFor } from './prices';
