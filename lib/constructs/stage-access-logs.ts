import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { removalPolicyFor, type Stage } from '../settings';

/** Every API Gateway stage's throttle (the HTTP API's and the push channel's). */
export const STAGE_THROTTLE = { rateLimit: 50, burstLimit: 100 };

/**
 * A stage's access logs: a log group kept a month, one JSON line per request with the fields every stage logs
 * (request id, caller IP, time, route, status, integration error) and `extra` fields of that kind of API.
 */
export function stageAccessLogs(scope: Construct, stage: Stage, extra: Record<string, string>): apigw.IAccessLogSettings {
  const group = new logs.LogGroup(scope, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: removalPolicyFor(stage) });
  return {
    destination: new apigw.LogGroupLogDestination(group),
    format: AccessLogFormat.custom(
      JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        time: '$context.requestTime',
        routeKey: '$context.routeKey',
        status: '$context.status',
        integrationError: '$context.integrationErrorMessage',
        ...extra,
      }),
    ),
  };
}
