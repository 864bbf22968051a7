import { Duration, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { removalPolicyFor, type Stage } from '../settings';

export interface AccessLogsProps {
  stage: Stage;
}

/** A private bucket that S3 server access logs and CloudFront standard logs can be delivered to, kept 90 days. */
export const LOG_BUCKET_PROPS = {
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  encryption: s3.BucketEncryption.S3_MANAGED,
  // CloudFront standard logs are delivered with an ACL grant, so ACLs must stay enabled on this bucket.
  objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
  lifecycleRules: [{ expiration: Duration.days(90) }],
} satisfies s3.BucketProps;

export function acknowledgeLogBucket(bucket: s3.Bucket): void {
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This is an access-log bucket itself; logging its own writes into itself would loop.',
  });
}

/** Where S3 server access logs and CloudFront access logs land. */
export class AccessLogs extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: AccessLogsProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      ...LOG_BUCKET_PROPS,
      removalPolicy: removalPolicyFor(props.stage),
      autoDeleteObjects: props.stage !== 'prod',
    });
    acknowledgeLogBucket(this.bucket);
  }
}
