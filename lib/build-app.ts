import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { BackgroundFunctionDef } from '../contract/functions';
import type { RouteDef } from '../contract/routes';
import { EdgeStack } from './edge-stack';
import { FramewrightStack } from './framewright-stack';
import { MailStack } from './mail-stack';
import { assertRegionSupported } from './regions';
import { readSettings, SettingsError } from './settings';

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
  // CloudFront's WAF lives in us-east-1 (lib/edge-stack.ts); the app stack reads it across regions, which needs
  // both regions known at synth: the CLI's (from the profile or AWS_REGION), or context `region`.
  const region = (app.node.tryGetContext('region') as string | undefined) ?? process.env.CDK_DEFAULT_REGION ?? process.env.AWS_REGION;
  if (!region) throw new SettingsError('No AWS region: set AWS_REGION (or a profile region), or pass -c region=<region>');
  assertRegionSupported(region);
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const edge = new EdgeStack(app, `Framewright-${settings.stage}-edge`, {
    stage: settings.stage,
    appRegion: region,
    description: `Framewright (${settings.stage}, ${region}): CloudFront's WAF web ACL (us-east-1)`,
    env: { account, region: 'us-east-1' },
    crossRegionReferences: true,
  });
  // The sender identity first, in a retained stack of its own: the app stack's user pool names it once verified.
  const mail = settings.existingSenderIdentity
    ? undefined
    : new MailStack(app, `Framewright-${settings.stage}-mail`, {
        stage: settings.stage,
        senderEmail: settings.senderEmail,
        senderDomain: settings.senderDomain,
        description: `Framewright (${settings.stage}): the SES sender identity (retained; verify it before deploying the app)`,
        env: { account, region },
      });
  const stack = new FramewrightStack(app, `Framewright-${settings.stage}`, {
    settings,
    routes: options.routes,
    backgroundFunctions: options.backgroundFunctions,
    edge,
    description: `Framewright (${settings.stage}): AI image and video studio`,
    env: { account, region },
    crossRegionReferences: true,
  });
  if (mail) stack.addStackDependency(mail, 'the user pool names the sender identity');
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
