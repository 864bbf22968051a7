import { routeById } from '../../contract/routes';
import { renameCollection } from '../app/rename-collection';
import { renameCollectionDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('renameCollection');

export const handler = userRoute(route, async (req, me) => ({
  body: await renameCollection(renameCollectionDeps(), me.sub, req.params.id, req.body.name),
}));
