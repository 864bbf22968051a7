export { CREDITS_LOAD_ERROR, useCredits, type CreditsState } from './credits-store';
export { CreditBalance } from './credit-balance';
export { CreditsLoadError, type CreditsLoadErrorProps } from './credits-load-error';
