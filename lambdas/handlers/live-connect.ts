import { openLiveConnection } from '../app/open-live-connection';
import { openLiveConnectionDeps } from '../wiring/deps';
import { headerOf, socketRoute } from './live-socket';
import { cameThroughCloudFront, ORIGIN_HEADER } from './origin';

/**
 * WebSocket $connect: 403 for a handshake that did not come through CloudFront (the WebSocket API's own execute-api
 * endpoint is public, like the HTTP API's: origin.ts), 200 with the chosen subprotocol for a verified ID token, 401
 * (handshake refused) otherwise.
 */
export const handler = socketRoute('liveConnect', async (event, connectionId) => {
  if (!(await cameThroughCloudFront({ [ORIGIN_HEADER]: headerOf(event, ORIGIN_HEADER) }))) return { statusCode: 403 };
  const { protocol } = await openLiveConnection(openLiveConnectionDeps(), connectionId, headerOf(event, 'sec-websocket-protocol'));
  return { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': protocol } };
});
