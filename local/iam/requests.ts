import { TABLE_SCHEMA } from '../../lib/table-schema';
import type { RequestContext } from './evaluate';

/**
 * Each service's request as IAM authorizes it: which actions on which resources, with which condition keys.
 * The one place to extend when a function starts calling a new API.
 */

export interface Account {
  region: string;
  accountId: string;
}

type Attr = Record<string, unknown>;
type KeyItem = Record<string, Attr>;

/** The partition key value of an item or key (dynamodb:LeadingKeys). */
function leading(key: KeyItem | undefined, attribute: string = TABLE_SCHEMA.partitionKey): string[] {
  const v = key?.[attribute];
  return v && typeof v.S === 'string' ? [v.S] : [];
}

const tableArn = (a: Account, table: string) => `arn:aws:dynamodb:${a.region}:${a.accountId}:table/${table}`;

/** DynamoDB's JSON protocol: `X-Amz-Target: DynamoDB_20120810.<Operation>` and a JSON body. */
export function dynamoRequest(a: Account, target: string, body: Record<string, unknown>): RequestContext[] {
  const operation = target.split('.').pop() ?? '';
  const single = (action: string, table: unknown, keys: string[], resource = tableArn(a, String(table))): RequestContext => ({
    action: `dynamodb:${action}`,
    resource,
    context: { 'dynamodb:LeadingKeys': keys },
  });
  switch (operation) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [single(operation, body.TableName, leading(body.Key as KeyItem))];
    case 'PutItem':
      return [single(operation, body.TableName, leading(body.Item as KeyItem))];
    case 'Query': {
      const index = TABLE_SCHEMA.indexes.find((i) => i.name === body.IndexName);
      const resource = tableArn(a, String(body.TableName)) + (body.IndexName ? `/index/${String(body.IndexName)}` : '');
      return [single('Query', body.TableName, queryPartition(body, index?.partitionKey ?? TABLE_SCHEMA.partitionKey), resource)];
    }
    case 'BatchGetItem':
      return Object.entries((body.RequestItems ?? {}) as Record<string, { Keys?: KeyItem[] }>).map(([table, r]) =>
        single('BatchGetItem', table, (r.Keys ?? []).flatMap((k) => leading(k))),
      );
    case 'BatchWriteItem':
      return Object.entries((body.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item: KeyItem }; DeleteRequest?: { Key: KeyItem } }>>).map(
        ([table, writes]) => single('BatchWriteItem', table, writes.flatMap((w) => leading(w.PutRequest?.Item ?? w.DeleteRequest?.Key))),
      );
    // A transaction is authorized item by item, with the item-level actions.
    case 'TransactWriteItems':
      return ((body.TransactItems ?? []) as Array<Record<string, { TableName: string; Key?: KeyItem; Item?: KeyItem }>>).flatMap((t) => {
        const [kind, op] = Object.entries(t)[0] ?? [];
        if (!kind || !op) return [];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind] ?? kind;
        return [single(action, op.TableName, leading(op.Key ?? op.Item))];
      });
    case 'TransactGetItems':
      return ((body.TransactItems ?? []) as Array<{ Get: { TableName: string; Key: KeyItem } }>).map((t) => single('GetItem', t.Get.TableName, leading(t.Get.Key)));
    case 'ListTables':
      return [{ action: 'dynamodb:ListTables', resource: '*' }];
    default:
      // Scan, DescribeTable...: on the table, without keys.
      return [{ action: `dynamodb:${operation}`, resource: tableArn(a, String(body.TableName)) }];
  }
}

/** The partition key value a Query's key condition names (`pk = :pk`, or `#p = :v` through ExpressionAttributeNames). */
function queryPartition(body: Record<string, unknown>, attribute: string): string[] {
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as KeyItem;
  for (const m of String(body.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const name = m[1]!.startsWith('#') ? names[m[1]!] : m[1];
    if (name === attribute) return leading({ [attribute]: values[m[2]!] ?? {} }, attribute);
  }
  return [];
}

/** S3's REST API, path-style (`/<bucket>/<key>`), as the SDK sends it locally. */
export function s3Request(method: string, url: URL, headers: Record<string, string | string[] | undefined>, body: string): RequestContext[] {
  const [, bucket = '', ...rest] = url.pathname.split('/');
  const key = rest.map(decodeURIComponent).join('/');
  const q = url.searchParams;
  const object = (action: string, k = key): RequestContext => ({ action: `s3:${action}`, resource: `arn:aws:s3:::${bucket}/${k}` });
  if (!key) {
    if (method === 'POST' && q.has('delete')) {
      // DeleteObjects is authorized as s3:DeleteObject on each key it names.
      return [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => object('DeleteObject', unescapeXml(m[1]!)));
    }
    if (method === 'GET' && !q.has('location') && !q.has('cors')) {
      return [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${bucket}`, context: { 's3:prefix': q.get('prefix') ?? '' } }];
    }
    return [{ action: `s3:${method === 'HEAD' ? 'ListBucket' : `${method}Bucket`}`, resource: `arn:aws:s3:::${bucket}` }];
  }
  if (method === 'GET' || method === 'HEAD') return [object('GetObject')];
  if (method === 'DELETE') return [object(q.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject')];
  // PutObject, and the parts of a multipart upload (CreateMultipartUpload, UploadPart, CompleteMultipartUpload).
  const copySource = headers['x-amz-copy-source'];
  const source = typeof copySource === 'string' ? decodeURIComponent(copySource.replace(/^\//, '').split('?')[0]!) : undefined;
  return [object('PutObject'), ...(source ? [{ action: 's3:GetObject', resource: `arn:aws:s3:::${source}` }] : [])];
}

const unescapeXml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** SES v2 (REST): SendEmail is checked against the sending identities with ses:FromAddress. */
export function sesRequest(a: Account, method: string, url: URL, body: Record<string, unknown>, identities: readonly string[]): RequestContext[] {
  if (method === 'POST' && url.pathname === '/v2/email/outbound-emails') {
    const from = String(body.FromEmailAddress ?? '');
    const address = from.replace(/^.*<([^>]+)>\s*$/, '$1');
    const domain = address.split('@')[1] ?? '';
    // SES authorizes a send against the identity it sends from: the address's own, or its domain's.
    const candidates = [address, domain].map((id) => `arn:aws:ses:${a.region}:${a.accountId}:identity/${id}`);
    const resource = candidates.find((c) => identities.includes(c)) ?? candidates[0]!;
    return [{ action: 'ses:SendEmail', resource, context: { 'ses:FromAddress': address } }];
  }
  if (method === 'GET' && url.pathname === '/v2/email/account') return [{ action: 'ses:GetAccount', resource: '*' }];
  return [{ action: `ses:${method}${url.pathname}`, resource: '*' }];
}

/** Cognito's JSON protocol: the admin calls act on the pool (`X-Amz-Target: AWSCognitoIdentityProviderService.<Op>`). */
export function cognitoRequest(a: Account, target: string, body: Record<string, unknown>): RequestContext[] {
  const operation = target.split('.').pop() ?? '';
  return [{ action: `cognito-idp:${operation}`, resource: `arn:aws:cognito-idp:${a.region}:${a.accountId}:userpool/${String(body.UserPoolId ?? '')}` }];
}

/** API Gateway's @connections (`<stage>/@connections/<id>`): execute-api:ManageConnections. */
export function connectionsRequest(a: Account, apiId: string, method: string, url: URL): RequestContext[] {
  const [, stage = '', ...rest] = url.pathname.split('/');
  return [{ action: 'execute-api:ManageConnections', resource: `arn:aws:execute-api:${a.region}:${a.accountId}:${apiId}/${stage}/${method}/${rest.join('/')}` }];
}

/** Secrets Manager's JSON protocol: the operation on the secret the call names (our functions name it by ARN). */
export function secretsManagerRequest(a: Account, target: string, body: Record<string, unknown>): RequestContext[] {
  const operation = target.split('.').pop() ?? '';
  const id = String(body.SecretId ?? body.Name ?? '');
  return [{ action: `secretsmanager:${operation}`, resource: id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${a.region}:${a.accountId}:secret:${id}` }];
}
