import { modelsView } from '../../contract/models/view';
import { routeById } from '../../contract/routes';
import { publicRoute } from './http';

const route = routeById('models');

// The registry changes only with a deploy: the answer is built once per instance and may be cached for a while.
const models = modelsView();

export const handler = publicRoute(route, async () => ({ body: models, headers: { 'cache-control': 'public, max-age=300' } }));
