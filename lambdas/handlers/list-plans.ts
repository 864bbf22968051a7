import { routeById } from '../../contract/routes';
import { listPlans } from '../app/list-plans';
import { publicRoute } from './http';

const route = routeById('plans');

export const handler = publicRoute(route, async () => ({ body: listPlans() }));
