/**
 * What the web app reads from `/config.json` at start-up: written by CDK beside the built app in the cloud
 * (lib/constructs/site.ts), served by the embedded stack locally (local/origin-routes.ts), validated by the web app
 * (web/src/lib/config.ts, whose schema must produce exactly this type). One build runs anywhere.
 */
export interface AppConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Contract paths start with /api, so this is usually '' (same origin), a path, or the API's origin. */
  apiBaseUrl: string;
  /** Local only: cognito-local's endpoint. */
  userPoolEndpoint?: string;
  /** Local only: cognito-local does not implement SRP. */
  authFlowType?: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH';
  /** Where users write for help (My Account > Contact, the terms). */
  supportEmail?: string;
}
