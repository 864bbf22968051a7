import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { LiveSender } from '../ports/live';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

/**
 * API Gateway's @connections API (PostToConnection). `endpoint` is the WebSocket stage's callback URL
 * (https://<api>.execute-api.<region>.amazonaws.com/<stage>), or the embedded stack's stand-in locally.
 */
export function apiGatewayLiveSender(region: string, endpoint: string): LiveSender {
  const client = new ApiGatewayManagementApiClient({ region, endpoint, maxAttempts: 3, requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) });
  return {
    async send(connectionId, data) {
      try {
        await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(data) }));
        return 'sent';
      } catch (err) {
        if (err instanceof GoneException) return 'gone';
        throw err;
      }
    },
  };
}
