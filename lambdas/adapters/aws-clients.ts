/**
 * One SDK client per service, created once per cold start from validated configuration.
 * Endpoints come from AWS_ENDPOINT_URL_* which the SDK reads itself; only s3rver needs extra settings.
 *
 * Each client lives in its own module, and lambdas/package.json declares `"sideEffects": false`: esbuild then
 * leaves out every module a function does not use, with its `require("@aws-sdk/...")`, so a function loads only
 * the SDK packages it calls (test/infra/bundles.test.ts checks each bundle against its grants).
 */
export { cognitoClient } from './cognito-client';
export { dynamo, dynamoBase } from './dynamo-client';
export { s3Client } from './s3-client';
export { sesClient } from './ses-client';
