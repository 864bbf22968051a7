import { routeById } from '../../contract/routes';
import { favoriteMedia } from '../app/favorite-media';
import { favoriteMediaDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('unfavoriteMedia');

export const handler = userRoute(route, async (req, me) => ({ body: await favoriteMedia(favoriteMediaDeps(), me.sub, req.params.id, false) }));
