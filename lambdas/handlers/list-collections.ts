import { routeById } from '../../contract/routes';
import { listCollections } from '../app/list-collections';
import { listCollectionsDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('listCollections');

export const handler = userRoute(route, async (_req, me) => ({ body: await listCollections(listCollectionsDeps(), me.sub) }));
