/**
 * The legal feature's public interface, for other features: the Terms text (sign-up shows it too) and the support
 * address from /config.json. The /terms page itself is loaded by path (web/src/app/public-pages.ts).
 */
export { TermsContent } from './terms-content';
export { supportEmail } from './support';
