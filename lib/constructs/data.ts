import { Aws, Duration } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { removalPolicyFor, type Stage } from '../settings';
import { TABLE_SCHEMA } from '../table-schema';
import { DELETED_MEDIA_DAYS, TABLE_BACKUP_DAYS } from '../../contract/retention';

/** How long the media bucket keeps an overwritten or deleted object's old version (the window to restore it). */
export const NONCURRENT_VERSION_DAYS = DELETED_MEDIA_DAYS;

export interface DataProps {
  stage: Stage;
  /** Receives the media bucket's server access logs. */
  accessLogs: s3.IBucket;
  /** A table restored to a point in time (a new table): used, with its stream, instead of the one made here. */
  restoredTable?: { tableName: string; streamArn: string };
}

/** What we keep: the single DynamoDB table and the private media bucket. */
export class Data extends Construct {
  readonly table: dynamodb.ITable;
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

    this.table = props.restoredTable
      ? dynamodb.Table.fromTableAttributes(this, 'RestoredTable', { tableName: props.restoredTable.tableName, tableStreamArn: props.restoredTable.streamArn })
      : this.makeTable(props.stage);

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
      // Versioned, so an overwritten or deleted object (a bug, a bad deploy, a stolen key) can be brought back for
      // NONCURRENT_VERSION_DAYS; after that its old versions expire, as a deleted account's media must.
      versioned: true,
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'expire-old-versions', noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS), expiredObjectDeleteMarker: true },
      ],
      removalPolicy: removalPolicyFor(props.stage),
      autoDeleteObjects: !prod,
    });
  }

  /** The single table (DESIGN §3) with its stream, point-in-time recovery, TTL and indexes. */
  private makeTable(stage: Stage): dynamodb.Table {
    const table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
      stream: dynamodb.StreamViewType[TABLE_SCHEMA.streamView],
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: TABLE_BACKUP_DAYS },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_SCHEMA.timeToLive,
      deletionProtection: stage === 'prod',
      removalPolicy: removalPolicyFor(stage),
    });
    for (const index of TABLE_SCHEMA.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: index.projection === 'ALL' ? dynamodb.ProjectionType.ALL : dynamodb.ProjectionType.KEYS_ONLY,
      });
    }
    return table;
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
