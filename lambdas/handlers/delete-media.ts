import { routeById } from '../../contract/routes';
import { NotFound } from '../app/errors';
import { generationDeps } from './generation-deps';
import { userRoute } from './http';

const route = routeById('deleteMedia');

/** Removes the item, then its file: a failure in between leaves an unlisted file, never a broken item. */
export const handler = userRoute(route, async (req, me) => {
  const id = req.params.id ?? '';
  const item = await generationDeps.media.get(me.sub, id);
  if (!item) throw new NotFound('This item does not exist or was already deleted.');
  await generationDeps.media.remove(me.sub, id);
  await generationDeps.store.remove(item.key);
  return { status: 204 };
});
