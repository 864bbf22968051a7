import { socketRoute } from './live-socket';

/** WebSocket $default: the browser's keep-alive pings (API Gateway closes a connection idle for 10 minutes). Nothing to do. */
export const handler = socketRoute('liveDefault', async () => ({ statusCode: 200 }));
