import { routeById } from '../../contract/routes';
import { IMAGE_MODEL } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { getOrCreateAccount } from '../app/get-account';
import { startGeneration, type GenerationRequest } from '../app/generation';
import { accountDeps } from './account-deps';
import { generationDeps } from './generation-deps';
import { userRoute } from './http';

const route = routeById('generateImage');

export const handler = userRoute(
  route,
  async (req, me) => {
    const account = await getOrCreateAccount(accountDeps, me);
    const request: GenerationRequest = {
      kind: 'image',
      model: IMAGE_MODEL.id,
      version: IMAGE_MODEL.version,
      prompt: req.body.prompt,
      cost: IMAGE_MODEL.cost,
      input: { prompt: req.body.prompt, ...IMAGE_MODEL.input },
      startImageKey: req.body.image,
      options: { width: IMAGE_MODEL.input.width, height: IMAGE_MODEL.input.height },
    };
    return { body: await startGeneration(generationDeps, me.sub, request, account.credits) };
  },
  Messages.signInToGenerateImages,
);
