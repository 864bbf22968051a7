import { routeById } from '../../contract/routes';
import { mediaUrls } from '../app/generation';
import { generationDeps } from './generation-deps';
import { userRoute, validQuery } from './http';

const route = routeById('listMedia');

/** The caller's images and videos, newest first, a page at a time, with presigned URLs. */
export const handler = userRoute(route, async (req, me) => {
  const { limit, type, cursor } = validQuery(route.query, req.query);
  const page = await generationDeps.media.list(me.sub, limit, cursor, type);
  const items = await Promise.all(
    page.items.map(async (i) => ({
      id: i.id,
      type: i.type,
      prompt: i.prompt,
      model: i.model,
      options: i.options,
      createdAt: i.createdAt,
      ...(await mediaUrls(generationDeps, i)),
    })),
  );
  return { body: { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } };
});
