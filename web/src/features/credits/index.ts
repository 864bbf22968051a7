export { CREDITS_LOAD_ERROR, readCredits, refreshCredits, resetCredits, setCredits, useCredits, type CreditsState } from './balance';
export { CreditBalance } from './credit-balance';
export { CreditsLoadError, type CreditsLoadErrorProps } from './credits-load-error';
