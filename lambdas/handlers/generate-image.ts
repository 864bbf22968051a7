import { routeById } from '../../contract/routes';
import { Messages } from '../../contract/errors';
import { startImageGeneration } from '../app/start-image-generation';
import { startImageGenerationDeps } from '../wiring/deps';
import { idempotentUserRoute } from './idempotent';

const route = routeById('generateImage');

export const handler = idempotentUserRoute(
  route,
  async (req, me) => ({ body: await startImageGeneration(startImageGenerationDeps(), me, req.body) }),
  { unauthorizedMessage: Messages.signInToGenerateImages, deletedAccountAnswersItself: true },
);
