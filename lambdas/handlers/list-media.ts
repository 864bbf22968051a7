import { routeById } from '../../contract/routes';
import { mediaUrls } from '../app/generation';
import { InvalidInput } from '../app/errors';
import { generationDeps } from './generation-deps';
import { userRoute } from './http';

const route = routeById('listMedia');

/** The caller's images and videos, newest first, a page at a time, with presigned URLs. */
export const handler = userRoute(route, async (req, me) => {
  const limit = req.query.limit === undefined ? 24 : Number(req.query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidInput('limit must be a whole number from 1 to 100.');
  const type = req.query.type;
  if (type !== undefined && type !== 'image' && type !== 'video') throw new InvalidInput('type must be image or video.');
  const page = await generationDeps.media.list(me.sub, limit, req.query.cursor, type);
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
