import { routeById } from '../../contract/routes';
import { deleteMedia } from '../app/delete-media';
import { deleteMediaDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('deleteMedia');

export const handler = userRoute(route, async (req, me) => {
  await deleteMedia(deleteMediaDeps(), me.sub, req.params.id ?? '');
  return { status: 204 };
});
