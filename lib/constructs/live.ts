import { Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { LIVE_PATH, type LiveRouteDef } from '../../contract/live';
import type { Stage } from '../settings';
import { RouteFunction, type GrantTargets } from './lambda-function';
import { STAGE_THROTTLE, stageAccessLogs } from './stage-access-logs';

export interface LiveProps {
  stage: Stage;
  routes: readonly LiveRouteDef[];
  targets: GrantTargets;
  environment: Record<string, string>;
}

/**
 * The push channel (contract/live.ts): an API Gateway WebSocket API whose $connect, $disconnect and $default run
 * the live-* functions. Its stage is named after LIVE_PATH, so CloudFront can send the app origin's /live to it
 * unchanged (lib/constructs/site.ts routeLive). $connect has no API Gateway authorizer: the function itself
 * verifies the Cognito ID token the browser offers as a subprotocol (a header a browser cannot set otherwise).
 */
export class Live extends Construct {
  readonly api: apigw.WebSocketApi;
  readonly stage: apigw.WebSocketStage;
  readonly functions: Record<string, RouteFunction> = {};

  constructor(scope: Construct, id: string, props: LiveProps) {
    super(scope, id);
    const integrationOf = (key: LiveRouteDef['routeKey']) => {
      const def = props.routes.find((r) => r.routeKey === key);
      if (!def) throw new Error(`contract/live: no ${key} route`);
      const fn = new RouteFunction(this, `${def.id}-fn`, { route: def, stage: props.stage, environment: props.environment, targets: props.targets });
      this.functions[def.id] = fn;
      return new WebSocketLambdaIntegration(`${def.id}-integration`, fn.function);
    };
    this.api = new apigw.WebSocketApi(this, 'WebSocketApi', {
      description: `Framewright ${props.stage} push channel (served under ${LIVE_PATH} by CloudFront)`,
      connectRouteOptions: { integration: integrationOf('$connect') },
      disconnectRouteOptions: { integration: integrationOf('$disconnect') },
      defaultRouteOptions: { integration: integrationOf('$default') },
    });
    this.stage = new apigw.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: LIVE_PATH.slice(1),
      autoDeploy: true,
      throttle: STAGE_THROTTLE,
      accessLogSettings: stageAccessLogs(this, props.stage, { eventType: '$context.eventType', connectionId: '$context.connectionId' }),
    });
    for (const route of this.api.node.findAll().filter((c) => c instanceof apigw.CfnRoute)) {
      const key = (route as apigw.CfnRoute).routeKey;
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          key === '$connect'
            ? 'The $connect function verifies the Cognito ID token itself (browsers send it as a WebSocket subprotocol, which no API Gateway authorizer reads) and refuses the handshake with 401 otherwise.'
            : `${key} is only reachable on a connection whose $connect was authorized.`,
      });
    }
  }

  /**
   * Every connection of this API (execute-api:ManageConnections, granted by 'live:send' in contract/permissions.ts):
   * the ARN WebSocketApi.grantManageConnections would grant.
   */
  get connectionsArn(): string {
    return Stack.of(this).formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: '*/*/@connections/*' });
  }

  /** The cdk-nag finding of a role that may post to and close connections of this API (the fan-out). */
  acknowledgeSend(role: iam.Role): void {
    // cdk-nag names the wildcard by the API's logical id.
    const stack = Stack.of(this);
    const apiId = stack.getLogicalId(this.api.node.defaultChild as CfnElement);
    // A stack with an explicit region or account (env, e.g. the CLI's with credentials) has it written out; an
    // environment-agnostic one, as a pseudo parameter.
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:${region}:${account}:<${apiId}>/*/*/@connections/*]`,
      reason: 'Connections are made at run time: execute-api:ManageConnections on the @connections of this one WebSocket API only.',
    });
  }

  /** The @connections endpoint of the stage (LIVE_ENDPOINT_URL of the fan-out). */
  get callbackUrl(): string {
    return this.stage.callbackUrl;
  }
}
