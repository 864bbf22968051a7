import { routeById } from '../../contract/routes';
import { listMedia } from '../app/list-media';
import { listMediaDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('listMedia');

export const handler = userRoute(route, async (req, me) => ({ body: await listMedia(listMediaDeps(), me.sub, req.query) }));
