import { routeById } from '../../contract/routes';
import { unshareMedia } from '../app/share-media';
import { shareMediaDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('unshareMedia');

export const handler = userRoute(route, async (req, me) => {
  await unshareMedia(shareMediaDeps(), me.sub, req.params.id);
  return { status: 204 };
});
