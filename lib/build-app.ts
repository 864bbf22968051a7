import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { BackgroundFunctionDef } from '../contract/functions';
import type { RouteDef } from '../contract/routes';
import { FramewrightStack } from './framewright-stack';
import { readSettings } from './settings';

export interface BuildAppOptions {
  /** Run the cdk-nag AwsSolutions checks at synth (default true). */
  nag?: boolean;
  /** Override the route table (tests); default contract/routes. */
  routes?: readonly RouteDef[];
  /** Override the stream and scheduled functions (tests); default contract/functions. */
  backgroundFunctions?: readonly BackgroundFunctionDef[];
}

/** Feature flags this app relies on (set in code so that tests and `cdk synth` behave the same). */
const FEATURE_FLAGS = {
  // S3 server access logs are granted by a bucket policy on the log bucket rather than an ACL.
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // One statement per action set and resource instead of one per grant call.
  '@aws-cdk/aws-iam:minimizePolicies': true,
};

/**
 * Adds the Framewright stack (`Framewright-<stage>`) to `app`, and cdk-nag unless told otherwise.
 * Used by bin/app.ts and by the infra tests, so both synthesize the same thing.
 */
export function buildApp(app: App, options: BuildAppOptions = {}): FramewrightStack {
  for (const [key, value] of Object.entries(FEATURE_FLAGS)) {
    if (app.node.tryGetContext(key) === undefined) app.node.setContext(key, value);
  }
  const settings = readSettings(app);
  const stack = new FramewrightStack(app, `Framewright-${settings.stage}`, {
    settings,
    routes: options.routes,
    backgroundFunctions: options.backgroundFunctions,
    description: `Framewright (${settings.stage}): AI image and video studio`,
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
