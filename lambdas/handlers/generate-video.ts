import { routeById } from '../../contract/routes';
import { Messages } from '../../contract/errors';
import { startVideoGeneration } from '../app/start-video-generation';
import { startVideoGenerationDeps } from '../wiring/deps';
import { idempotentUserRoute } from './idempotent';

const route = routeById('generateVideo');

export const handler = idempotentUserRoute(
  route,
  async (req, me) => ({ body: await startVideoGeneration(startVideoGenerationDeps(), me, req.body) }),
  { unauthorizedMessage: Messages.signIn, deletedAccountAnswersItself: true },
);
