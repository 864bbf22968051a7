import { Match } from 'aws-cdk-lib/assertions';
import { LIVE_PATH, LIVE_ROUTES } from '../../contract/live';
import { permissionsOf, resourcesOfType, synthForSuite } from './synth';
import { STAGE_THROTTLE } from '../../lib/constructs/stage-access-logs';

describe('Live: the push channel in the cloud', () => {
  const synth = synthForSuite();
  const fnByDescription = (description: string) =>
    resourcesOfType(synth.template, 'AWS::Lambda::Function').find(([, r]) => r.Properties?.Description === description)!;

  it('is a WebSocket API whose $connect, $disconnect and $default run the live-* functions, with no authorizer API Gateway could not apply', () => {
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    const keys = resourcesOfType(synth.template, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey as string);
    for (const route of LIVE_ROUTES) {
      expect(keys).toContain(route.routeKey);
      expect(fnByDescription(route.description)).toBeDefined();
    }
  });

  it('has one stage named after the path CloudFront serves it at, throttled, with access logs', () => {
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: LIVE_PATH.slice(1),
      AutoDeploy: true,
      // Sized by the capacity model (test/domain/capacity.test.ts).
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit }),
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it('CloudFront sends the app origin /live to it, uncached, with the handshake headers', () => {
    const [, dist] = resourcesOfType(synth.template, 'AWS::CloudFront::Distribution')[0]!;
    const behavior = (dist.Properties!.DistributionConfig.CacheBehaviors as Array<Record<string, unknown>>).find((b) => b.PathPattern === LIVE_PATH);
    expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'https-only', CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac' });
  });

  it('the fan-out reads the table stream, may post to connections of this API only, and is told where', () => {
    const [fanOutId, fanOut] = fnByDescription("Sends each change of a user's balance, jobs and media to that user's open WebSockets");
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionName: { Ref: fanOutId }, StartingPosition: 'LATEST' });
    const permissions = permissionsOf(synth.template, fanOutId);
    const manage = permissions.get('execute-api:ManageConnections') ?? [];
    expect(manage).toHaveLength(1);
    expect(manage[0]).toMatch(/@connections\/\*/);
    expect(fanOut.Properties!.Environment.Variables.LIVE_ENDPOINT_URL).toBeDefined();
    // Nobody else may send.
    for (const [id] of resourcesOfType(synth.template, 'AWS::Lambda::Function').filter(([id]) => id !== fanOutId)) {
      expect(permissionsOf(synth.template, id).has('execute-api:ManageConnections')).toBe(false);
    }
  });

  it('$connect may store connections and nothing beyond the table (and read the origin secret)', () => {
    const [connectId] = fnByDescription(LIVE_ROUTES.find((r) => r.routeKey === '$connect')!.description);
    const actions = [...permissionsOf(synth.template, connectId).keys()].filter((a) => !a.startsWith('logs:'));
    // The table, and the origin secret it checks the handshake's header against.
    expect(actions.filter((a) => !a.startsWith('dynamodb:'))).toEqual(['secretsmanager:GetSecretValue']);
  });
});
