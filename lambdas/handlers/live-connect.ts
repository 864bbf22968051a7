import { openLiveConnection } from '../app/open-live-connection';
import { openLiveConnectionDeps } from '../wiring/deps';
import { headerOf, socketRoute } from './live-socket';

/** WebSocket $connect: 200 with the chosen subprotocol for a verified ID token, 401 (handshake refused) otherwise. */
export const handler = socketRoute('liveConnect', async (event, connectionId) => {
  const { protocol } = await openLiveConnection(openLiveConnectionDeps(), connectionId, headerOf(event, 'sec-websocket-protocol'));
  return { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': protocol } };
});
