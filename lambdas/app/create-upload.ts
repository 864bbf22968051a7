import { MAX_START_IMAGE_BYTES, startImageLongSide } from '../../contract/catalog';
import type { CreateUploadRequest, CreateUploadResponse } from '../../contract/schemas';
import { objectKeys } from '../domain/keys';
import type { MediaStore } from '../ports/media-store';

export interface CreateUploadDeps {
  store: MediaStore;
  now: () => Date;
}

const UPLOAD_SECONDS = 10 * 60;

/** POST /api/uploads: a presigned POST for a start image; S3 itself refuses other types and anything over 5,242,880 bytes. */
export async function createUpload(deps: CreateUploadDeps, owner: string, input: CreateUploadRequest): Promise<CreateUploadResponse> {
  const key = objectKeys.startImage(owner, deps.now().getTime());
  // The app sends every start image as PNG (resized in the browser); an SVG or an HTML page is refused by S3 itself.
  const upload = await deps.store.presignUpload(key, MAX_START_IMAGE_BYTES, 'image/png', UPLOAD_SECONDS);
  return { ...upload, maxBytes: MAX_START_IMAGE_BYTES, maxLongSide: startImageLongSide(input.purpose) };
}
