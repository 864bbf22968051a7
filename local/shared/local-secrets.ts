/** Fixed local credentials for the simulators (never real ones: nothing local talks to Replicate or PayPal). */
export const LOCAL_SECRETS = {
  replicateToken: 'r8_framewright_local_simulator_token',
  replicateWebhookSecret: `whsec_${Buffer.from('framewright-local-replicate-webhook-secret').toString('base64')}`,
  paypalClientId: 'framewright-local-paypal-client',
  paypalClientSecret: 'framewright-local-paypal-secret',
  paypalWebhookId: 'WH-FRAMEWRIGHT-LOCAL',
  /** Fixed, as a stage's must be: `.data/` keeps welcome marks across restarts. */
  welcomeHashKey: 'framewright-local-welcome-hash-key',
} as const;
