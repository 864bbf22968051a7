import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DEMAND_PER_USER, throttleFor } from '../../contract/capacity-model';
import { removalPolicyFor, type Stage } from '../settings';

/**
 * The push channel's stage throttle, sized by the capacity model: its connects and keep-alive pings at the design point
 * (where Replicate's create limit bites), with headroom. The HTTP API's throttles are per route (contract/throttles.ts).
 */
export const STAGE_THROTTLE = throttleFor(DEMAND_PER_USER.pushRequestsPerSecond);

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
