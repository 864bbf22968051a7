import { Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import type { RouteDef } from '../../contract/routes';
import { THROTTLES, throttleClassOf } from '../../contract/throttles';
import type { Stage } from '../settings';
import type { Auth } from './auth';
import { RouteFunction, type GrantTargets } from './lambda-function';
import { stageAccessLogs } from './stage-access-logs';

/**
 * The busiest route of each throttle kind (and the two starts): their request rate is watched against their route
 * throttle (lib/constructs/observability.ts quota alarms), with detailed metrics on for them alone.
 */
export const RATE_WATCHED_ROUTES: readonly string[] = ['checkStatus', 'generateImage', 'generateVideo', 'replicateWebhook', 'sharePage', 'createPaypalPayment'];

export interface ApiProps {
  stage: Stage;
  /** The route table (contract/routes): one function and one route each. */
  routes: readonly RouteDef[];
  auth: Auth;
  targets: GrantTargets;
  /** Configuration every handler reads (keys: .env.example). */
  environment: Record<string, string>;
}

/**
 * The HTTP API: every route of the contract, the Cognito JWT authorizer on `user` routes, a stage that throttles each
 * route by its kind (contract/throttles.ts).
 */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly functions: Record<string, RouteFunction> = {};

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const region = Stack.of(this).region;

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: `Framewright ${props.stage} API (served under /api by CloudFront)`,
      createDefaultStage: false,
    });

    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: THROTTLES.rest,
      accessLogSettings: stageAccessLogs(this, props.stage, {
        method: '$context.httpMethod',
        latencyMs: '$context.responseLatency',
        responseLength: '$context.responseLength',
        authorizerError: '$context.authorizer.error',
      }),
    });

    const { userPool, client } = props.auth;
    const authorizer = new HttpJwtAuthorizer(
      'CognitoAuthorizer',
      `https://cognito-idp.${region}.amazonaws.com/${userPool.userPoolId}`,
      { jwtAudience: [client.userPoolClientId] },
    );

    // RouteSettings is free-form JSON in CloudFormation (CDK passes it through as is): keys as the API names them.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number; DetailedMetricsEnabled?: boolean }> = {};
    for (const route of props.routes) {
      const fn = new RouteFunction(this, `${route.id}-fn`, {
        route,
        stage: props.stage,
        environment: props.environment,
        targets: props.targets,
      });
      this.functions[route.id] = fn;
      const httpRoute = new apigw.HttpRoute(this, `${route.id}-route`, {
        httpApi: this.httpApi,
        routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${route.id}-integration`, fn.function),
        ...(route.auth === 'user' ? { authorizer } : {}),
      });
      if (route.auth !== 'user') {
        const why =
          route.auth === 'none'
            ? 'public by design; its route throttle (contract/throttles.ts) bounds abuse'
            : 'a provider webhook: the handler verifies the provider signature, callers have no Cognito token';
        Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: `${route.method} ${route.path} is ${why}.` });
        Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-COG4', reason: `${route.method} ${route.path} is ${why}.` });
      }
      const kind = throttleClassOf(route);
      const watched = RATE_WATCHED_ROUTES.includes(route.id);
      if (kind !== 'rest' || watched) {
        routeSettings[`${route.method} ${route.path}`] = {
          ThrottlingRateLimit: THROTTLES[kind].rateLimit,
          ThrottlingBurstLimit: THROTTLES[kind].burstLimit,
          // Per-route metrics (billed as custom metrics) only where the rate is watched against the throttle.
          ...(watched ? { DetailedMetricsEnabled: true } : {}),
        };
        // A stage's route settings name routes that must already exist.
        this.stage.node.addDependency(httpRoute);
      }
    }
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = routeSettings;
  }
}
