import { routeById } from '../../contract/routes';
import { createCollection } from '../app/create-collection';
import { createCollectionDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('createCollection');

export const handler = userRoute(route, async (req, me) => ({ status: 201, body: await createCollection(createCollectionDeps(), me.sub, req.body.name) }));
