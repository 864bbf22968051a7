import { routeById } from '../../contract/routes';
import { getMedia } from '../app/get-media';
import { getMediaDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('getMedia');

export const handler = userRoute(route, async (req, me) => ({ body: await getMedia(getMediaDeps(), me.sub, req.params.id ?? '') }));
