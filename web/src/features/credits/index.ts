export { CREDITS_LOAD_ERROR, readCredits, refreshCredits, resetCredits, setCredits, useCredits } from './balance';
export { CreditBalance } from './credit-balance';
export { CreditsLoadError } from './credits-load-error';
