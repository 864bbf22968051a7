import { routeById } from '../../contract/routes';
import { MAX_START_IMAGE_BYTES, startImageLongSide } from '../../contract/catalog';
import { generationDeps } from './generation-deps';
import { userRoute } from './http';

const route = routeById('createUpload');
const UPLOAD_SECONDS = 10 * 60;

/** A presigned POST for a start image: S3 itself refuses other types and anything over 5,242,880 bytes. */
export const handler = userRoute(route, async (req, me) => {
  const key = `users/${me.sub}/images/${Date.now()}.png`;
  const upload = await generationDeps.store.presignUpload(key, MAX_START_IMAGE_BYTES, 'image/', UPLOAD_SECONDS);
  return { body: { ...upload, maxBytes: MAX_START_IMAGE_BYTES, maxLongSide: startImageLongSide(req.body.purpose) } };
});
