import { Aws, Duration } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { removalPolicyFor, type Stage } from '../settings';
import { TABLE_SCHEMA } from '../table-schema';

export interface DataProps {
  stage: Stage;
  /** Receives the media bucket's server access logs. */
  accessLogs: s3.IBucket;
}

/** What we keep: the single DynamoDB table and the private media bucket. */
export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly mediaBucket: s3.Bucket;
  /**
   * The origins browsers use for presigned media URLs. Built from the bucket's fixed name rather than its
   * attributes: the site's CSP lists them while this bucket's CORS lists the site, and attribute references
   * both ways would be a CloudFormation dependency cycle.
   */
  readonly mediaOrigins: string[];

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const prod = props.stage === 'prod';

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
      stream: dynamodb.StreamViewType[TABLE_SCHEMA.streamView],
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_SCHEMA.timeToLive,
      deletionProtection: prod,
      removalPolicy: removalPolicyFor(props.stage),
    });
    for (const index of TABLE_SCHEMA.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    const mediaBucketName = `framewright-${props.stage}-media-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
    this.mediaOrigins = [
      `https://${mediaBucketName}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      `https://${mediaBucketName}.s3.${Aws.URL_SUFFIX}`,
    ];
    this.mediaBucket = new s3.Bucket(this, 'MediaBucket', {
      bucketName: mediaBucketName,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'media/',
      // Uploads that never completed are removed after a day. Abandoned start images cannot be expired by a
      // rule: they share users/<sub>/images/ with generated results (create-upload.ts, generation.ts
      // resultKey), and lifecycle filters match a key prefix, not a pattern.
      lifecycleRules: [{ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: removalPolicyFor(props.stage),
      autoDeleteObjects: !prod,
    });
  }

  /** Lets the app at `origin` upload to and download from the media bucket with presigned URLs. */
  allowBrowserAccessFrom(origin: string): void {
    this.mediaBucket.addCorsRule({
      allowedOrigins: [origin],
      allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.PUT, s3.HttpMethods.POST, s3.HttpMethods.HEAD],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag'],
      maxAge: 3000,
    });
  }
}
