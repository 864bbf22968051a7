import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { EDGE_RATE_RULES } from '../contract/edge-limits';
import { acknowledgeLogBucket, LOG_BUCKET_PROPS } from './constructs/access-logs';
import { managedRules, rateRules, webAclVisibility } from './constructs/waf';
import type { Stage } from './settings';

/**
 * Regions CloudFront's standard (legacy) logging cannot deliver to (opt-in regions, enabled per account), from
 * the CloudFront Developer Guide's "Choosing an Amazon S3 bucket for your standard logs". A stack there logs to a
 * bucket in us-east-1 (this stack's) instead.
 */
export const OPT_IN_REGIONS = [
  'af-south-1',
  'ap-east-1',
  'ap-east-2',
  'ap-south-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-6',
  'ap-southeast-7',
  'ca-west-1',
  'eu-central-2',
  'eu-south-1',
  'eu-south-2',
  'il-central-1',
  'me-central-1',
  'me-south-1',
  'mx-central-1',
] as const;

export const isOptInRegion = (region: string) => (OPT_IN_REGIONS as readonly string[]).includes(region);

export { EDGE_RATE_RULES };

export interface EdgeStackProps extends StackProps {
  stage: Stage;
  /** The region of the app stack this edge belongs to (in every account-global name). */
  appRegion: string;
}

/**
 * What CloudFront needs from us-east-1: its WAF web ACL (scope CLOUDFRONT exists only there) and, for an app
 * in an opt-in region, the bucket its access logs go to. The app stack reads both through CDK's cross-region
 * references (SSM parameters in this region, read by a custom resource).
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;
  readonly logBucket?: s3.Bucket;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const name = `framewright-${props.stage}-${props.appRegion}-edge`;
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name,
      description: `Framewright ${props.stage} ${props.appRegion} - managed rules and per-IP rate limits in front of CloudFront`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: webAclVisibility(name),
      rules: [
        ...managedRules(
          [
            { name: 'AWSManagedRulesAmazonIpReputationList' },
            // Provider webhooks (PayPal's events, Replicate's predictions with logs) are larger than the group's 8 kB
            // body limit; the API bounds bodies itself (1 MB, http.ts).
            { name: 'AWSManagedRulesCommonRuleSet', countOnly: ['SizeRestrictions_BODY'] },
            { name: 'AWSManagedRulesKnownBadInputsRuleSet' },
          ],
          0,
        ),
        ...rateRules(EDGE_RATE_RULES, 10),
      ],
    });

    if (isOptInRegion(props.appRegion)) {
      this.logBucket = new s3.Bucket(this, 'CloudFrontLogs', {
        ...LOG_BUCKET_PROPS,
        // Kept on teardown (it empties itself within 90 days): emptying it would need a custom-resource function here.
        removalPolicy: RemovalPolicy.RETAIN,
      });
      acknowledgeLogBucket(this.logBucket);
    }
  }
}
