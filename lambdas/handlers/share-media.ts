import { routeById } from '../../contract/routes';
import { shareMedia } from '../app/share-media';
import { shareMediaDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('shareMedia');

export const handler = userRoute(route, async (req, me) => ({ body: await shareMedia(shareMediaDeps(), me.sub, req.params.id, req.body) }));
