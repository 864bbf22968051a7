import { routeById } from '../../contract/routes';
import { Messages } from '../../contract/errors';
import { startGeneration } from '../app/start-generation';
import { startGenerationDeps } from '../wiring/deps';
import { idempotentUserRoute, requestKeyOf } from './idempotent';

const route = routeById('generations');

export const handler = idempotentUserRoute(
  route,
  async (req, me) => ({ body: await startGeneration(startGenerationDeps(), me, req.body, requestKeyOf(req)) }),
  { unauthorizedMessage: Messages.signIn, deletedAccountAnswersItself: true },
);
