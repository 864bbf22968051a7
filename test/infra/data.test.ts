import { Match } from 'aws-cdk-lib/assertions';
import { TABLE_BACKUP_DAYS } from '../../contract/retention';
import { logicalId, mailTemplate, resourcesOfType, synthForSuite } from './synth';

describe('Data: table and buckets', () => {
  const synth = synthForSuite();

  it('has one on-demand table with pk/sk, point-in-time recovery, encryption and TTL', () => {
    synth.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'gsi1pk', AttributeType: 'S' },
        { AttributeName: 'gsi1sk', AttributeType: 'S' },
        { AttributeName: 'openpk', AttributeType: 'S' },
        { AttributeName: 'opensk', AttributeType: 'S' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      // The window the terms quote (contract/retention.ts).
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: TABLE_BACKUP_DAYS },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });

  it('blocks public access on every bucket and encrypts it', () => {
    const buckets = resourcesOfType(synth.template, 'AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    for (const [, bucket] of buckets) {
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      });
    }
  });

  it('refuses plain-HTTP requests on every bucket', () => {
    const policies = resourcesOfType(synth.template, 'AWS::S3::BucketPolicy');
    for (const [id] of resourcesOfType(synth.template, 'AWS::S3::Bucket')) {
      const policy = policies.find(([, p]) => p.Properties!.Bucket?.Ref === id);
      expect({ id, statements: policy?.[1].Properties!.PolicyDocument.Statement }).toEqual({
        id,
        statements: expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      });
    }
  });

  it('lets no bucket policy allow anonymous access', () => {
    for (const [id, policy] of resourcesOfType(synth.template, 'AWS::S3::BucketPolicy')) {
      for (const statement of policy.Properties!.PolicyDocument.Statement) {
        if (statement.Effect !== 'Allow') continue;
        expect({ id, principal: statement.Principal }).not.toEqual({ id, principal: '*' });
        expect({ id, principal: statement.Principal }).not.toEqual({ id, principal: { AWS: '*' } });
      }
    }
    // The site bucket is read by CloudFront only, for this distribution only (origin access control).
    const siteBucket = logicalId(synth.template, 'AWS::S3::Bucket', 'SiteBucket');
    const sitePolicy = resourcesOfType(synth.template, 'AWS::S3::BucketPolicy').find(([, p]) => p.Properties!.Bucket.Ref === siteBucket)!;
    const allows = sitePolicy[1].Properties!.PolicyDocument.Statement.filter((st: any) => st.Effect === 'Allow');
    // Besides CloudFront, only dev's auto-delete custom resource (it empties the bucket when the stack goes).
    const others = allows.filter((st: any) => !st.Principal.Service);
    expect(others.map((st: any) => st.Principal.AWS['Fn::GetAtt'][0])).toEqual(
      others.length ? [expect.stringMatching(/^CustomS3AutoDeleteObjects/)] : [],
    );
    expect(allows.filter((st: any) => st.Principal.Service)).toEqual([
      expect.objectContaining({
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': ['', expect.arrayContaining([{ Ref: logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site') }])],
            },
          },
        },
      }),
    ]);
  });

  it('logs media and site bucket access to the access-log bucket', () => {
    const logs = logicalId(synth.template, 'AWS::S3::Bucket', 'AccessLogs');
    for (const prefix of ['DataMediaBucket', 'SiteBucket']) {
      const bucket = synth.template.toJSON().Resources[logicalId(synth.template, 'AWS::S3::Bucket', prefix)];
      expect(bucket.Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logs }, LogFilePrefix: expect.any(String) });
    }
  });

  it('lets only the site upload and download media, and cleans up unfinished uploads', () => {
    const distribution = logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site');
    const media = synth.template.toJSON().Resources[logicalId(synth.template, 'AWS::S3::Bucket', 'DataMediaBucket')];
    expect(media.Properties.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({
        AllowedMethods: ['GET', 'PUT', 'POST', 'HEAD'],
        AllowedOrigins: [{ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] }],
      }),
    ]);
    // Unfinished multipart uploads and old versions only: no rule may expire current objects (results share
    // users/<sub>/images/ with start images, so a rule there would delete what users generated).
    expect(media.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: 'abort-incomplete-uploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
      { Id: 'expire-old-versions', NoncurrentVersionExpiration: { NoncurrentDays: 30 }, ExpiredObjectDeleteMarker: true, Status: 'Enabled' },
    ]);
  });

  it('creates the app secret with placeholder keys for operators to fill in', () => {
    synth.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'framewright/dev/app',
      SecretString: Match.serializedJson({
        REPLICATE_API_TOKEN: '',
        REPLICATE_WEBHOOK_SECRET: '',
        PAYPAL_CLIENT_ID: '',
        PAYPAL_CLIENT_SECRET: '',
        PAYPAL_WEBHOOK_ID: '',
      }),
    });
  });

  it("creates the SES identity of the sender in the stage's mail stack", () => {
    mailTemplate(synth).hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'no-reply@framewright.app' });
  });
});
