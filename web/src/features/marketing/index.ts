/**
 * The marketing feature's public interface, for other features: how prices read (price-text.ts, which imports only
 * contract/ types and the packs), so the generators label and price things as the pricing page does; the sign-in
 * pages' clip with whether it is a placeholder (media.ts). The pages are loaded by path (web/src/app/public-pages.ts)
 * and are not exported here.
 */
export { AUTH_CLIP } from './media';
export { choiceText, credits, generateLabel } from './price-text';
