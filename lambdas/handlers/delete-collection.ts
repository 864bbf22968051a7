import { routeById } from '../../contract/routes';
import { deleteCollection } from '../app/delete-collection';
import { deleteCollectionDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('deleteCollection');

export const handler = userRoute(route, async (req, me) => {
  await deleteCollection(deleteCollectionDeps(), me.sub, req.params.id);
  return { status: 204 };
});
