import * as fs from 'node:fs';
import * as path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '../../lib/settings';
import { LIVE_ROUTES } from '../../contract/live';
import { KEY_SCOPES } from '../../contract/permissions';
import { ROUTES as CONTRACT_ROUTES, type Grant, type RouteDef } from '../../contract/routes';
import { WEBHOOK_LEASE_SECONDS } from '../../contract/webhooks';
import { logicalId, permissionsOf, resourcesOfType, routeFunction, synthForSuite, synthTemplate } from './synth';

/** What each grant must mean in IAM, written independently of lib/ so that a drift shows. */
const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const EXPECTED_ACTIONS: Record<Grant, string[]> = {
  'table:read': TABLE_READ,
  'table:write': [...TABLE_READ, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:BatchWriteItem'],
  'table:index:gsi1': ['dynamodb:Query'],
  'table:index:open-jobs': ['dynamodb:Query'],
  'media:read': ['s3:GetObject'],
  'media:write': ['s3:PutObject'],
  'media:delete': ['s3:DeleteObject'],
  'ses:send': ['ses:SendEmail'],
  'ses:read': ['ses:GetAccount'],
  'cognito:read': ['cognito-idp:AdminGetUser'],
  'cognito:delete-user': ['cognito-idp:AdminDeleteUser'],
  'media:list': ['s3:ListBucket'],
  'secret:replicate': ['secretsmanager:GetSecretValue'],
  'secret:paypal': ['secretsmanager:GetSecretValue'],
  'secret:origin': ['secretsmanager:GetSecretValue'],
  'secret:welcome-hash': ['secretsmanager:GetSecretValue'],
  'secret:content-credentials': ['secretsmanager:GetSecretValue'],
  'secret:origin:rotate': ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'],
  'cloudfront:origin-header': ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
  'live:send': ['execute-api:ManageConnections'],
};
const ROUTES: readonly RouteDef[] = CONTRACT_ROUTES;
const LOG_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'];

/** What every function is told (keys of .env.example). */
const ENV_KEYS = [
  'TABLE_NAME',
  'MEDIA_BUCKET',
  'USER_POOL_ID',
  'USER_POOL_CLIENT_ID',
  'APP_URL',
  'SES_FROM_ADDRESS',
  'SUPPORT_EMAIL',
  'POWERTOOLS_SERVICE_NAME',
  'NODE_OPTIONS',
  'DAILY_GENERATION_CAP',
];

function expectedActions(route: RouteDef): string[] {
  return [...new Set([...LOG_ACTIONS, ...route.grants.flatMap((g) => EXPECTED_ACTIONS[g])])].sort();
}

/** Only functions that may read a secret learn where it is (its ARN, never its value); only PayPal's learn PayPal's URL. */
function expectedEnvKeys(route: RouteDef): string[] {
  const app = route.grants.some((g) => g === 'secret:replicate' || g === 'secret:paypal');
  const paypal = route.grants.includes('secret:paypal');
  return [
    ...ENV_KEYS,
    ...(app ? ['SECRETS_ARN'] : []),
    ...(paypal ? ['PAYPAL_BASE_URL'] : []),
    ...(route.grants.includes('secret:origin') ? ['ORIGIN_SECRET_ARN'] : []),
    ...(route.grants.includes('secret:welcome-hash') ? ['WELCOME_HASH_KEY_ARN'] : []),
  ].sort();
}

function routeResource(template: Template, route: RouteDef) {
  const found = resourcesOfType(template, 'AWS::ApiGatewayV2::Route').filter(
    ([, r]) => r.Properties!.RouteKey === `${route.method} ${route.path}`,
  );
  expect(found).toHaveLength(1);
  return found[0]![1];
}

describe('Api (contract/routes)', () => {
  const synth = synthForSuite();

  it('has one function and one route per route of the table', () => {
    const routeFunctions = resourcesOfType(synth.template, 'AWS::Lambda::Function').filter(
      ([, r]) => r.Properties!.Runtime === 'nodejs24.x' && /^(GET|POST|PUT|DELETE) \/(api|s)\//.test(r.Properties!.Description ?? ''),
    );
    expect(routeFunctions).toHaveLength(ROUTES.length);
    // Besides the push channel's WebSocket routes (test/infra/live.test.ts).
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Route', ROUTES.length + LIVE_ROUTES.length);
    for (const route of ROUTES) {
      const [fnId] = routeFunction(synth.template, route);
      const integrationId = routeResource(synth.template, route).Properties!.Target['Fn::Join'][1][1].Ref;
      const integration = synth.template.toJSON().Resources[integrationId];
      expect(integration.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
      expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
    }
  });

  it('finds the handler file of every route', () => {
    const missing = ROUTES.map((r) => `lambdas/handlers/${r.handler}.ts`).filter((f) => !fs.existsSync(path.join(REPO_ROOT, f)));
    expect(missing).toEqual([]);
  });

  it('puts the Cognito JWT authorizer on every user route and on no other', () => {
    const authorizerId = logicalId(synth.template, 'AWS::ApiGatewayV2::Authorizer', 'Api');
    for (const route of ROUTES) {
      const props = routeResource(synth.template, route).Properties!;
      if (route.auth === 'user') {
        expect(props.AuthorizationType).toBe('JWT');
        expect(props.AuthorizerId).toEqual({ Ref: authorizerId });
      } else {
        expect(props.AuthorizationType).toBe('NONE');
        expect(props.AuthorizerId).toBeUndefined();
      }
    }
  });

  it('verifies tokens of our user pool and app client', () => {
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: logicalId(synth.template, 'AWS::Cognito::UserPoolClient', 'Auth') }],
        Issuer: {
          'Fn::Join': ['', ['https://cognito-idp.eu-west-1.amazonaws.com/', { Ref: logicalId(synth.template, 'AWS::Cognito::UserPool', 'Auth') }]],
        },
      },
    });
  });

  it('gives each function exactly the permissions its grants name', () => {
    for (const route of ROUTES) {
      const [fnId] = routeFunction(synth.template, route);
      expect([...permissionsOf(synth.template, fnId).keys()].sort()).toEqual(expectedActions(route));
    }
  });

  it('narrows the table statements of the public functions to their keys (dynamodb:LeadingKeys) and no others', () => {
    for (const route of ROUTES) {
      const [fnId] = routeFunction(synth.template, route);
      const role = synth.template.toJSON().Resources[fnId].Properties.Role['Fn::GetAtt'][0];
      const conditions = resourcesOfType(synth.template, 'AWS::IAM::Policy')
        .filter(([, p]) => p.Properties!.Roles.some((r: { Ref?: string }) => r.Ref === role))
        .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Array<{ Action: string | string[]; Condition?: unknown }>)
        .filter((st) => [st.Action].flat().some((a) => a.startsWith('dynamodb:')))
        .map((st) => st.Condition);
      const scope = route.tableKeys;
      const expected = scope ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...KEY_SCOPES[scope]] } } : undefined;
      expect({ route: route.id, conditions }).toEqual({ route: route.id, conditions: conditions.map(() => expected) });
    }
    // The scoped ones are the functions anyone can call.
    expect(ROUTES.filter((r) => r.tableKeys).map((r) => r.auth)).toEqual(ROUTES.filter((r) => r.tableKeys).map(() => 'none'));
  });

  it('never grants a wildcard action, and none on the table', () => {
    const tableId = logicalId(synth.template, 'AWS::DynamoDB::Table', 'Data');
    for (const [id, policy] of resourcesOfType(synth.template, 'AWS::IAM::Policy')) {
      for (const statement of policy.Properties!.PolicyDocument.Statement) {
        const actions = [statement.Action].flat() as string[];
        expect({ id, actions: actions.filter((a) => a === '*' || a.startsWith('dynamodb:') && a.includes('*')) }).toEqual({ id, actions: [] });
        if (JSON.stringify(statement.Resource).includes(tableId)) {
          expect({ id, actions: actions.filter((a) => a.includes('*')) }).toEqual({ id, actions: [] });
        }
      }
    }
  });

  it('applies the function defaults and the route settings', () => {
    for (const route of ROUTES) {
      const [, fn] = routeFunction(synth.template, route);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: route.memoryMb ?? 512,
        Timeout: route.timeoutSeconds ?? 10,
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      const logGroup = synth.template.toJSON().Resources[fn.Properties!.LoggingConfig.LogGroup.Ref];
      expect(logGroup.Properties.RetentionInDays).toBe(30);
    }
  });

  it('gives every function that claims webhook deliveries a timeout shorter than the claims\u2019 lease', () => {
    // A claim without an outcome is taken again after WEBHOOK_LEASE_SECONDS (steps/receive-webhook.ts): never from a
    // function still running. The deployed timeouts are read from the template, not from the contract.
    const claimers = ROUTES.filter((r) => r.auth === 'signature');
    expect(claimers.map((r) => r.id).sort()).toEqual(['paypalWebhook', 'replicateWebhook']);
    for (const route of claimers) {
      const [, fn] = routeFunction(synth.template, route);
      expect(fn.Properties!.Timeout).toBeLessThan(WEBHOOK_LEASE_SECONDS);
      // The lease is the contract's in the cloud: nothing shortens it there.
      expect(fn.Properties!.Environment.Variables).not.toHaveProperty('WEBHOOK_LEASE_SECONDS');
    }
    // Longer than the most any API function may be given (API Gateway's 29 s), whatever a route's timeout becomes.
    expect(WEBHOOK_LEASE_SECONDS).toBeGreaterThan(29);
  });

  it('configures every function from the deployment (keys of .env.example)', () => {
    const distributionId = logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site');
    const secretId = logicalId(synth.template, 'AWS::SecretsManager::Secret', 'Secrets');
    for (const route of ROUTES) {
      const [, fn] = routeFunction(synth.template, route);
      const env = fn.Properties!.Environment.Variables;
      expect({ route: route.id, keys: Object.keys(env).sort() }).toEqual({ route: route.id, keys: expectedEnvKeys(route) });
      expect(env).toMatchObject({
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'framewright',
        SES_FROM_ADDRESS: 'no-reply@framewright.app',
        SUPPORT_EMAIL: 'no-reply@framewright.app',
        APP_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] },
        TABLE_NAME: { Ref: logicalId(synth.template, 'AWS::DynamoDB::Table', 'Data') },
        USER_POOL_ID: { Ref: logicalId(synth.template, 'AWS::Cognito::UserPool', 'Auth') },
        USER_POOL_CLIENT_ID: { Ref: logicalId(synth.template, 'AWS::Cognito::UserPoolClient', 'Auth') },
      });
      if (env.SECRETS_ARN) expect(env.SECRETS_ARN).toEqual({ Ref: secretId });
      // dev talks to the PayPal sandbox.
      if (env.PAYPAL_BASE_URL) expect(env.PAYPAL_BASE_URL).toBe('https://api-m.sandbox.paypal.com');
    }
  });

  it('lets only routes with a secret grant read the secret', () => {
    const secretRef = JSON.stringify({ Ref: logicalId(synth.template, 'AWS::SecretsManager::Secret', 'Secrets') });
    const withSecret = ROUTES.filter((r) => r.grants.some((g) => g === 'secret:replicate' || g === 'secret:paypal'));
    expect(withSecret.length).toBeGreaterThan(0);
    expect(withSecret.length).toBeLessThan(ROUTES.length);
    for (const route of ROUTES) {
      const [fnId] = routeFunction(synth.template, route);
      const permissions = permissionsOf(synth.template, fnId);
      const reads = [...permissions].filter(([, resources]) => resources.includes(secretRef)).map(([action]) => action);
      expect({ route: route.id, reads }).toEqual({
        route: route.id,
        reads: withSecret.includes(route) ? ['secretsmanager:GetSecretValue'] : [],
      });
    }
  });

  it('outputs the callback URL of every webhook route', () => {
    const distributionId = logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site');
    const outputs = synth.template.toJSON().Outputs;
    const hooks = ROUTES.filter((r) => r.auth === 'signature');
    expect(hooks.length).toBeGreaterThan(0);
    for (const route of hooks) {
      const name = `${route.id[0]!.toUpperCase()}${route.id.slice(1)}Url`;
      expect(outputs[name]?.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, route.path]] });
    }
  });

  it('throttles the default stage and writes access logs', () => {
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ApiAccessLogs'), 'Arn'] },
        Format: Match.stringLikeRegexp('\\$context\\.requestId'),
      },
    });
  });
});

describe('Api built from another route table', () => {
  // Every grant, every auth kind and the per-route settings, whatever the real table holds today.
  // The handler files are the existing ones: bundling is skipped, only the entry must exist.
  const routes: RouteDef[] = [
    { id: 'hook', method: 'POST', path: '/api/webhooks/test', auth: 'signature', handler: 'get-health', grants: ['table:write', 'secret:replicate', 'secret:paypal'] },
    { id: 'media', method: 'DELETE', path: '/api/media/{id}', auth: 'user', handler: 'get-me', grants: ['media:read', 'media:write', 'media:delete'] },
    { id: 'contact', method: 'POST', path: '/api/send-contact', auth: 'none', handler: 'get-health', grants: ['ses:send', 'ses:read', 'cognito:read'], timeoutSeconds: 29, memoryMb: 1024 },
  ];
  const synth = synthForSuite({ routes });

  it('generates functions, routes and authorization from the table', () => {
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length + LIVE_ROUTES.length);
    for (const route of routes) {
      const [, fn] = routeFunction(synth.template, route);
      expect(fn.Properties).toMatchObject({ MemorySize: route.memoryMb ?? 512, Timeout: route.timeoutSeconds ?? 10 });
      expect(routeResource(synth.template, route).Properties!.AuthorizationType).toBe(route.auth === 'user' ? 'JWT' : 'NONE');
    }
  });

  it('maps each grant to its actions on the right resource', () => {
    const ref = (type: string, prefix: string) => logicalId(synth.template, type, prefix);
    const table = JSON.stringify({ 'Fn::GetAtt': [ref('AWS::DynamoDB::Table', 'Data'), 'Arn'] });
    const objects = JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [ref('AWS::S3::Bucket', 'DataMediaBucket'), 'Arn'] }, '/users/*']] });
    const secret = JSON.stringify({ Ref: ref('AWS::SecretsManager::Secret', 'Secrets') });
    const userPool = JSON.stringify({ 'Fn::GetAtt': [ref('AWS::Cognito::UserPool', 'Auth'), 'Arn'] });

    for (const route of routes) {
      const [fnId] = routeFunction(synth.template, route);
      const permissions = permissionsOf(synth.template, fnId);
      expect([...permissions.keys()].sort()).toEqual(expectedActions(route));
      for (const [action, resources] of permissions) {
        if (action.startsWith('dynamodb:')) expect(resources).toEqual([table]);
        if (action.startsWith('s3:')) expect(resources).toEqual([objects]);
        if (action.startsWith('secretsmanager:')) expect(resources).toEqual([secret]);
        if (action.startsWith('cognito-idp:')) expect(resources).toEqual([userPool]);
        if (action === 'ses:SendEmail') {
          // The sender's identity, named by ARN (the mail stack owns it; the support address is the sender here, so no
          // recipient identity).
          expect(resources).toEqual([expect.stringMatching(/:identity\/no-reply@framewright\.app"/)]);
        }
        if (action === 'ses:GetAccount') expect(resources).toEqual(['"*"']);
      }
    }
  });

  it('lets mail go out only from the sender address', () => {
    const [fnId] = routeFunction(synth.template, routes[2]!);
    const roleId: string = synth.template.toJSON().Resources[fnId].Properties.Role['Fn::GetAtt'][0];
    const statements = resourcesOfType(synth.template, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties!.Roles.some((r: any) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement);
    expect(statements.filter((st: any) => [st.Action].flat().includes('ses:SendEmail'))).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@framewright.app' } },
      }),
    ]);
  });

  it('refuses a timeout API Gateway would cut short', () => {
    const tooSlow: RouteDef = { id: 'slow', method: 'GET', path: '/api/slow', auth: 'user', handler: 'get-me', grants: [], timeoutSeconds: 30 };
    expect(() => synthTemplate({ routes: [tooSlow] })).toThrow('Route "slow": timeoutSeconds must be between 1 and 29 (got 30)');
  });
});
