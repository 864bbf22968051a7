export { SubscriptionPanel } from './subscription-panel';
export { startSubscription } from './subscription-api';
