import { routeById } from '../../contract/routes';
import { listPlans } from '../app/list-plans';
import { publicRoute } from './http';

const route = routeById('plans');

// The plans change only with a deploy: browsers and CloudFront may keep them as long as the models' list.
export const handler = publicRoute(route, async () => ({ body: listPlans(), headers: { 'cache-control': 'public, max-age=300' } }));
