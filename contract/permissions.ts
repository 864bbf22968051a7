import type { Grant } from './routes';

/**
 * What a function may do in AWS, as IAM policy statements: the one mapping from grants (contract/routes,
 * contract/functions, contract/live) to actions, resources and conditions. CDK turns these statements into each
 * function's role (lib/constructs/lambda-function.ts); the embedded stack evaluates every AWS call of a function
 * against the same statements (local/iam), so what the cloud would refuse is refused locally too.
 *
 * Pure data, no CDK: the ARNs are strings (CDK tokens in the cloud, fixed ARNs locally).
 */

export interface PolicyStatementJson {
  Effect: 'Allow';
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** The resources grants refer to. */
export interface GrantArns {
  table: string;
  mediaBucket: string;
  userPool: string;
  secret: string;
  /** The origin header's secret, and the welcome mark's hash key (read at run time by ARN). */
  originSecret: string;
  welcomeHashKey: string;
  /** The content-credentials signing key and certificate chain. */
  contentCredentials: string;
  /** The CloudFront distribution whose API origins send the origin header (the rotation function's grant). */
  distribution?: string;
  /** The SES identities ses:SendEmail is checked against. */
  sendingIdentities: readonly string[];
  /** The only From address the functions may use (ses:FromAddress). */
  senderEmail: string;
  /** execute-api ARN of every connection of the push channel's stage(s): `.../<apiId>/*\/*\/@connections/*`. */
  liveConnections?: string;
}

/**
 * Partition-key patterns a function's table access can be narrowed to (dynamodb:LeadingKeys): the public
 * functions touch only the items they serve, so a flaw in one cannot rewrite an account or its credits.
 * The prefixes are those of lambdas/domain/keys.ts.
 */
export const KEY_SCOPES = {
  /** GET /api/health reads the probe item only. */
  health: ['HEALTH'],
  /** The contact form: its rate-limit counters and the messages it stores. */
  contact: ['RATE#contact#*', 'CONTACT#*'],
  /** Share pages: the share link, then its owner's media item (read only). */
  shares: ['SHARE#*', 'USER#*'],
  /** PayPal's cancel redirect and the outcome page: the order, and its owner's copy of it. */
  orders: ['ORDER#*', 'USER#*'],
} as const satisfies Record<string, readonly string[]>;
export type KeyScope = keyof typeof KEY_SCOPES;

/** Everything of a user lives under this prefix of the media bucket (users/<sub>/...): object grants stop there. */
export const MEDIA_PREFIX = 'users/';

export const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/**
 * TransactWriteItems and TransactGetItems are authorized through these item-level actions. BatchWriteItem is its
 * own action (deleting an account removes its items 25 at a time): it puts and deletes no item that PutItem and
 * DeleteItem would not, so it widens nothing.
 */
export const TABLE_WRITE = [
  ...TABLE_READ,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:BatchWriteItem',
];

/** What a function's definition says about its permissions. */
export interface PermissionsDef {
  grants: readonly Grant[];
  /** Narrows every table grant to these partition keys (absent: the whole table). */
  tableKeys?: KeyScope;
}

type Statements = (a: GrantArns) => PolicyStatementJson[];
const allow = (Action: string[], Resource: string[], Condition?: PolicyStatementJson['Condition']): PolicyStatementJson => ({
  Effect: 'Allow',
  Action,
  Resource,
  ...(Condition ? { Condition } : {}),
});
const objects = (a: GrantArns) => [`${a.mediaBucket}/${MEDIA_PREFIX}*`];

/** What each grant means in IAM. Typed by `Grant`: a new grant must be mapped here. */
const GRANT_STATEMENTS: Record<Grant, Statements> = {
  'table:read': (a) => [allow(TABLE_READ, [a.table])],
  'table:write': (a) => [allow(TABLE_WRITE, [a.table])],
  // The table itself only for the grants above; an index is granted by name.
  'table:index:gsi1': (a) => [allow(['dynamodb:Query'], [`${a.table}/index/gsi1`])],
  'table:index:open-jobs': (a) => [allow(['dynamodb:Query'], [`${a.table}/index/open-jobs`])],
  'media:read': (a) => [allow(['s3:GetObject'], objects(a))],
  'media:write': (a) => [allow(['s3:PutObject'], objects(a))],
  'media:delete': (a) => [allow(['s3:DeleteObject'], objects(a))],
  'ses:send': (a) => [allow(['ses:SendEmail'], [...a.sendingIdentities], { StringEquals: { 'ses:FromAddress': a.senderEmail } })],
  // GetAccount (sending quota and status, for the health check) has no resource-level permissions.
  'ses:read': () => [allow(['ses:GetAccount'], ['*'])],
  'cognito:read': (a) => [allow(['cognito-idp:AdminGetUser'], [a.userPool])],
  'cognito:delete-user': (a) => [allow(['cognito-idp:AdminDeleteUser'], [a.userPool])],
  // ListObjectsV2 is authorized on the bucket; the condition keeps the listing inside users/.
  'media:list': (a) => [allow(['s3:ListBucket'], [a.mediaBucket], { StringLike: { 's3:prefix': [`${MEDIA_PREFIX}*`] } })],
  'secret:replicate': (a) => [allow(['secretsmanager:GetSecretValue'], [a.secret])],
  'secret:paypal': (a) => [allow(['secretsmanager:GetSecretValue'], [a.secret])],
  'secret:origin': (a) => [allow(['secretsmanager:GetSecretValue'], [a.originSecret])],
  'secret:welcome-hash': (a) => [allow(['secretsmanager:GetSecretValue'], [a.welcomeHashKey])],
  'secret:content-credentials': (a) => [allow(['secretsmanager:GetSecretValue'], [a.contentCredentials])],
  // The steps of a rotation on this secret only.
  'secret:origin:rotate': (a) => [
    allow(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'], [a.originSecret]),
  ],
  'cloudfront:origin-header': (a) => {
    if (!a.distribution) throw new Error("'cloudfront:origin-header' needs the distribution's ARN");
    return [allow(['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'], [a.distribution])];
  },
  'live:send': (a) => {
    if (!a.liveConnections) throw new Error("'live:send' needs the push channel's connections ARN");
    return [allow(['execute-api:ManageConnections'], [a.liveConnections])];
  },
};

/** The IAM statements of a function's grants (in the order of its grants, one grant named twice counts once). */
export function statementsFor(def: PermissionsDef, arns: GrantArns): PolicyStatementJson[] {
  const statements = [...new Set(def.grants)].flatMap((g) => GRANT_STATEMENTS[g](arns));
  if (!def.tableKeys) return statements;
  const leadingKeys = [...KEY_SCOPES[def.tableKeys]];
  return statements.map((s) =>
    s.Action.some((a) => a.startsWith('dynamodb:'))
      ? { ...s, Condition: { ...s.Condition, 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys } } }
      : s,
  );
}
