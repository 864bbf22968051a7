export { SubscriptionPanel } from './subscription-panel';
export { startSubscription } from './subscription-api';
export { SubscriptionReturnNotice } from './subscription-return-notice';
