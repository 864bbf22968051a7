import { DynamoDBClient, GetItemCommand, PutItemCommand, DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { statementsFor, type PolicyStatementJson } from '../../contract/permissions';
import { isAllowed } from '../../local/iam/evaluate';
import { asFunction, markFunctionRequests } from '../../local/iam/identity';
import { localArns, localPolicies } from '../../local/iam/policies';
import { dynamoRequest, s3Request, sesRequest } from '../../local/iam/requests';
import { stackEnv } from '../support/users';

const A = { region: 'us-east-1', accountId: '000000000000' };
const RESOURCES = { tableName: 'framewright', mediaBucket: 'framewright-media', userPoolId: 'us-east-1_FramewrightLocal', senderEmail: 'no-reply@framewright.local' };
const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/framewright';
const S = (s: string) => ({ S: s });

describe('the local IAM check, against the embedded stack', () => {
  beforeAll(() => markFunctionRequests());
  const env = () => stackEnv();
  const dynamo = () => new DynamoDBClient({ region: 'us-east-1', endpoint: env().AWS_ENDPOINT_URL_DYNAMODB, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const s3 = () =>
    new S3Client({ region: 'us-east-1', endpoint: env().AWS_ENDPOINT_URL_S3, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });

  it('refuses a function an action it is not granted, with the AccessDeniedException DynamoDB answers', async () => {
    const db = dynamo();
    // The contact form may write its own items, not an account.
    const write = asFunction('sendContact', () => db.send(new PutItemCommand({ TableName: 'framewright', Item: { pk: S('USER#iam-test'), sk: S('ACCOUNT'), credits: { N: '1000' } } })));
    await expect(write()).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('is not authorized to perform: dynamodb:PutItem on resource: ' + TABLE),
    });
    // Nothing was written: the stack's own (unmarked) read finds no item.
    expect((await db.send(new GetItemCommand({ TableName: 'framewright', Key: { pk: S('USER#iam-test'), sk: S('ACCOUNT') } }))).Item).toBeUndefined();
    // The same client, as the same function, on the items it serves: allowed.
    const own = asFunction('sendContact', () => db.send(new PutItemCommand({ TableName: 'framewright', Item: { pk: S('CONTACT#iam-test'), sk: S('CONTACT') } })));
    await expect(own()).resolves.toBeDefined();
    await db.send(new DeleteItemCommand({ TableName: 'framewright', Key: { pk: S('CONTACT#iam-test'), sk: S('CONTACT') } }));
    // A function with no grants at all.
    await expect(asFunction('liveDefault', () => db.send(new GetItemCommand({ TableName: 'framewright', Key: { pk: S('HEALTH'), sk: S('HEALTH') } })))()).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });

  it('refuses S3 calls outside a function\'s grants with S3\'s AccessDenied', async () => {
    const client = s3();
    const bucket = env().MEDIA_BUCKET;
    // A share page may read users' objects, never write one.
    const put = asFunction('sharePage', () => client.send(new PutObjectCommand({ Bucket: bucket, Key: 'users/iam-test/images/1.png', Body: 'x' })));
    await expect(put()).rejects.toMatchObject({ name: 'AccessDenied' });
    // Reading outside users/ is refused to every function.
    const outside = asFunction('sharePage', () => client.send(new GetObjectCommand({ Bucket: bucket, Key: 'other/thing' })));
    await expect(outside()).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('checks the From address of an email against ses:FromAddress', async () => {
    const ses = new SESv2Client({ region: 'us-east-1', endpoint: env().AWS_ENDPOINT_URL_SESV2, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const send = (from: string) =>
      asFunction('sendContact', () =>
        ses.send(new SendEmailCommand({ FromEmailAddress: from, Destination: { ToAddresses: ['support@framewright.local'] }, Content: { Simple: { Subject: { Data: 'iam' }, Body: { Text: { Data: 'iam' } } } } })),
      )();
    await expect(send('someone-else@framewright.local')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(send(RESOURCES.senderEmail)).resolves.toBeDefined();
  });

  it('reads a secret only with its grant, as Secrets Manager answers otherwise', async () => {
    const sm = new SecretsManagerClient({ region: 'us-east-1', endpoint: env().AWS_ENDPOINT_URL_SECRETS_MANAGER, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const read = (fn: string, arn: string) => asFunction(fn, () => sm.send(new GetSecretValueCommand({ SecretId: arn })))();
    // The contact form reads no secret; the Replicate webhook reads the app keys, never the welcome hash key.
    await expect(read('sendContact', env().SECRETS_ARN!)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(read('replicateWebhook', env().WELCOME_HASH_KEY_ARN!)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(read('replicateWebhook', env().SECRETS_ARN!)).resolves.toMatchObject({ ARN: env().SECRETS_ARN });
    sm.destroy();
  });
});

describe('requests as IAM sees them', () => {
  it('authorizes DynamoDB transactions item by item and batches as their own actions, with the keys they touch', () => {
    expect(
      dynamoRequest(A, 'DynamoDB_20120810.TransactWriteItems', {
        TransactItems: [
          { Put: { TableName: 'framewright', Item: { pk: S('USER#a'), sk: S('ACCOUNT') } } },
          { Update: { TableName: 'framewright', Key: { pk: S('JOB#1'), sk: S('JOB') } } },
          { ConditionCheck: { TableName: 'framewright', Key: { pk: S('DELETED#a'), sk: S('DELETED') } } },
        ],
      }).map((c) => [c.action, c.context?.['dynamodb:LeadingKeys']]),
    ).toEqual([
      ['dynamodb:PutItem', ['USER#a']],
      ['dynamodb:UpdateItem', ['JOB#1']],
      ['dynamodb:ConditionCheckItem', ['DELETED#a']],
    ]);
    const [batch] = dynamoRequest(A, 'DynamoDB_20120810.BatchWriteItem', {
      RequestItems: { framewright: [{ DeleteRequest: { Key: { pk: S('USER#a'), sk: S('X') } } }, { PutRequest: { Item: { pk: S('USER#b'), sk: S('Y') } } }] },
    });
    expect(batch).toEqual({ action: 'dynamodb:BatchWriteItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['USER#a', 'USER#b'] } });
    const [query] = dynamoRequest(A, 'DynamoDB_20120810.Query', {
      TableName: 'framewright',
      IndexName: 'gsi1',
      KeyConditionExpression: '#p = :p AND gsi1sk < :t',
      ExpressionAttributeNames: { '#p': 'gsi1pk' },
      ExpressionAttributeValues: { ':p': S('OPEN_JOB'), ':t': S('2') },
    });
    expect(query).toEqual({ action: 'dynamodb:Query', resource: `${TABLE}/index/gsi1`, context: { 'dynamodb:LeadingKeys': ['OPEN_JOB'] } });
  });

  it('maps S3 REST calls to object and bucket actions (DeleteObjects per key, ListObjectsV2 with its prefix)', () => {
    const url = (p: string) => new URL(p, 'http://s3');
    expect(s3Request('HEAD', url('/b/users/a/x.png'), {}, '')).toEqual([{ action: 's3:GetObject', resource: 'arn:aws:s3:::b/users/a/x.png' }]);
    expect(s3Request('POST', url('/b?delete'), {}, '<Delete><Object><Key>users/a/1</Key></Object><Object><Key>users/a/&amp;2</Key></Object></Delete>')).toEqual([
      { action: 's3:DeleteObject', resource: 'arn:aws:s3:::b/users/a/1' },
      { action: 's3:DeleteObject', resource: 'arn:aws:s3:::b/users/a/&2' },
    ]);
    expect(s3Request('GET', url('/b?list-type=2&prefix=users%2Fa%2F'), {}, '')).toEqual([{ action: 's3:ListBucket', resource: 'arn:aws:s3:::b', context: { 's3:prefix': 'users/a/' } }]);
    expect(s3Request('PUT', url('/b/users/a/y'), { 'x-amz-copy-source': '/b/users/a/x' }, '').map((c) => c.action)).toEqual(['s3:PutObject', 's3:GetObject']);
  });

  it('names the sending identity and the From address of an SES v2 SendEmail', () => {
    const ids = localArns(RESOURCES).sendingIdentities;
    expect(sesRequest(A, 'POST', new URL('http://ses/v2/email/outbound-emails'), { FromEmailAddress: 'Framewright <no-reply@framewright.local>' }, ids)).toEqual([
      { action: 'ses:SendEmail', resource: 'arn:aws:ses:us-east-1:000000000000:identity/no-reply@framewright.local', context: { 'ses:FromAddress': 'no-reply@framewright.local' } },
    ]);
  });
});

describe('evaluating statements', () => {
  const policies = localPolicies(RESOURCES);
  const allowed = (fn: string, action: string, resource: string, context?: Record<string, string | string[]>) =>
    isAllowed(policies.get(fn) as PolicyStatementJson[], { action, resource, context });

  it('allows deleting an account to batch-delete its items (it was refused in AWS)', () => {
    expect(allowed('deleteAccount', 'dynamodb:BatchWriteItem', TABLE, { 'dynamodb:LeadingKeys': ['USER#a'] })).toBe(true);
  });

  it('keeps the public functions to their own keys (dynamodb:LeadingKeys, every key of a call)', () => {
    expect(allowed('sendContact', 'dynamodb:PutItem', TABLE, { 'dynamodb:LeadingKeys': ['RATE#contact#ip:1'] })).toBe(true);
    expect(allowed('sendContact', 'dynamodb:PutItem', TABLE, { 'dynamodb:LeadingKeys': ['USER#a'] })).toBe(false);
    expect(allowed('sharePage', 'dynamodb:BatchGetItem', TABLE, { 'dynamodb:LeadingKeys': ['SHARE#t', 'ORDER#o'] })).toBe(false);
    expect(allowed('paypalCancel', 'dynamodb:UpdateItem', TABLE, { 'dynamodb:LeadingKeys': ['ORDER#o'] })).toBe(true);
    expect(allowed('health', 'dynamodb:GetItem', TABLE, { 'dynamodb:LeadingKeys': ['HEALTH'] })).toBe(true);
    expect(allowed('health', 'dynamodb:GetItem', TABLE, { 'dynamodb:LeadingKeys': ['USER#a'] })).toBe(false);
    // A signed-in route keeps the whole table.
    expect(allowed('me', 'dynamodb:UpdateItem', TABLE, { 'dynamodb:LeadingKeys': ['USER#a'] })).toBe(true);
  });

  it('matches actions without case and ARNs with it, and an index only by name', () => {
    expect(allowed('me', 'DynamoDB:getitem', TABLE)).toBe(true);
    expect(allowed('me', 'dynamodb:GetItem', TABLE.toUpperCase())).toBe(false);
    expect(allowed('me', 'dynamodb:Query', `${TABLE}/index/gsi1`)).toBe(false);
    expect(allowed('reconcileJobs', 'dynamodb:Query', `${TABLE}/index/gsi1`)).toBe(true);
    expect(allowed('deleteAccount', 's3:ListBucket', 'arn:aws:s3:::framewright-media', { 's3:prefix': 'users/a/' })).toBe(true);
    expect(allowed('deleteAccount', 's3:ListBucket', 'arn:aws:s3:::framewright-media', { 's3:prefix': '' })).toBe(false);
    expect(allowed('deleteAccount', 's3:ListBucket', 'arn:aws:s3:::framewright-media')).toBe(false);
  });

  it('refuses a condition operator it cannot judge instead of allowing it', () => {
    const odd: PolicyStatementJson[] = [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: ['*'], Condition: { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } } }];
    expect(() => isAllowed(odd, { action: 's3:GetObject', resource: 'arn:aws:s3:::b/k' })).toThrow(/not supported/);
  });

  it('gives the stack the statements CDK gives the roles', () => {
    const arns = localArns(RESOURCES);
    expect(policies.get('deleteAccount')).toEqual(statementsFor({ grants: ['table:read', 'table:write', 'media:list', 'media:delete', 'cognito:delete-user', 'secret:paypal', 'secret:origin'] }, arns));
  });
});
