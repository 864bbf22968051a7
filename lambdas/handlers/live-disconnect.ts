import { closeLiveConnection } from '../app/close-live-connection';
import { closeLiveConnectionDeps } from '../wiring/deps';
import { socketRoute } from './live-socket';

/** WebSocket $disconnect: forget the connection. */
export const handler = socketRoute('liveDisconnect', async (_event, connectionId) => {
  await closeLiveConnection(closeLiveConnectionDeps(), connectionId);
  return { statusCode: 200 };
});
