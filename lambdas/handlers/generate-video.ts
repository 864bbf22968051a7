import { routeById } from '../../contract/routes';
import { Messages } from '../../contract/errors';
import { getOrCreateAccount } from '../app/get-account';
import { generateVideo } from '../app/generate-video';
import { accountDeps } from './account-deps';
import { generationDeps } from './generation-deps';
import { userRoute } from './http';

const route = routeById('generateVideo');

export const handler = userRoute(
  route,
  async (req, me) => {
    const account = await getOrCreateAccount(accountDeps, me);
    return { body: await generateVideo(generationDeps, me.sub, req.body, account.credits) };
  },
  Messages.signIn,
);
