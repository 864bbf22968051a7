import { routeById } from '../../contract/routes';
import { Messages } from '../../contract/errors';
import { imageOrder, startGeneration } from '../app/start-generation';
import { startGenerationDeps } from '../wiring/deps';
import { idempotentUserRoute, requestKeyOf } from './idempotent';

const route = routeById('generateImage');

export const handler = idempotentUserRoute(
  route,
  async (req, me) => ({ body: await startGeneration(startGenerationDeps(), me, imageOrder(req.body), requestKeyOf(req)) }),
  { unauthorizedMessage: Messages.signInToGenerateImages, deletedAccountAnswersItself: true },
);
