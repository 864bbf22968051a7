import { routeById } from '../../contract/routes';
import { deleteAccount } from '../app/delete-account';
import { deleteAccountDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('deleteAccount');

export const handler = userRoute(
  route,
  async (_req, me) => {
    await deleteAccount(deleteAccountDeps(), me);
    return { status: 204 };
  },
  // A repeated request finishes a deletion that failed half way.
  { allowDeletedAccount: true },
);
