/**
 * The optional start image: checked when picked or dropped, converted at once to the PNG the
 * model takes (so a bad file is reported before Generate), and uploaded with a presigned POST on Generate.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_START_IMAGE_BYTES, startImageLongSide, type StartImagePurpose } from '../../../../contract/catalog';
import { api } from '../../lib/api-client';
import { GenerationText, reasonOf } from './generation-messages';
import { toStartImagePng, type PreparedImage } from './image-file';

export type StartImageSource = 'picker' | 'drop';

/** The spec's start-image messages: one for a drop, a size message for the file picker. */
export function validateStartImage(file: Pick<File, 'type' | 'size'>, source: StartImageSource): string | undefined {
  const isImage = /^image\//i.test(file.type);
  const tooLarge = file.size > MAX_START_IMAGE_BYTES;
  if (source === 'drop') return !isImage || tooLarge ? GenerationText.invalidImage : undefined;
  if (tooLarge) return GenerationText.imageTooLarge;
  if (!isImage) return GenerationText.invalidImage;
  return undefined;
}

export interface StartImage {
  file: File;
  /** An object URL of the original, for the preview. */
  previewUrl: string;
  /** The PNG to upload, once converted. */
  prepared: PreparedImage | undefined;
  /** The conversion, awaited by Generate. */
  ready: Promise<PreparedImage>;
}

export interface StartImageState {
  image: StartImage | undefined;
  /** Checks a picked or dropped file; returns the error to show, if any. */
  select(file: File, source: StartImageSource): string | undefined;
  clear(): void;
}

/** Holds the chosen start image for one page. */
export function useStartImage(purpose: StartImagePurpose, onError: (message: string | undefined) => void): StartImageState {
  const [image, setImage] = useState<StartImage | undefined>();
  const current = useRef<StartImage | undefined>(undefined);
  const onErrorRef = useRef(onError);
  useEffect(() => {
    onErrorRef.current = onError;
  });

  const replace = useCallback((next: StartImage | undefined) => {
    if (current.current) URL.revokeObjectURL(current.current.previewUrl);
    current.current = next;
    setImage(next);
  }, []);

  useEffect(
    () => () => {
      if (current.current) URL.revokeObjectURL(current.current.previewUrl);
      current.current = undefined;
    },
    [],
  );

  const select = useCallback(
    (file: File, source: StartImageSource) => {
      const error = validateStartImage(file, source);
      if (error) return error;
      const ready = toStartImagePng(file, startImageLongSide(purpose), MAX_START_IMAGE_BYTES);
      const entry: StartImage = { file, previewUrl: URL.createObjectURL(file), prepared: undefined, ready };
      replace(entry);
      ready.then(
        (prepared) => {
          if (current.current !== entry) return;
          const done = { ...entry, prepared };
          current.current = done;
          setImage(done);
        },
        (err: unknown) => {
          if (current.current !== entry) return;
          replace(undefined);
          onErrorRef.current(reasonOf(err));
        },
      );
      // Keep an unawaited rejection from being reported as unhandled; Generate awaits `ready` itself.
      ready.catch(() => undefined);
      return undefined;
    },
    [purpose, replace],
  );

  const clear = useCallback(() => replace(undefined), [replace]);
  return { image, select, clear };
}

/** S3 answers a refused POST with XML; its Code says why. */
function s3Refusal(status: number, body: string): string {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (code === 'EntityTooLarge') return GenerationText.imageTooLarge;
  if (code === 'AccessDenied' && /expired/i.test(body)) return 'The upload link expired. Please try again.';
  return `Could not upload the start image (HTTP ${status}).`;
}

/**
 * Uploads the start image (a presigned POST: S3 itself enforces the type and the 5 MB limit) and returns its key
 * for generate-image / generate-video.
 */
export async function uploadStartImage(image: StartImage, purpose: StartImagePurpose): Promise<string> {
  let prepared = await image.ready;
  let upload = await api.createUpload({ body: { contentType: 'image/png', size: prepared.blob.size, purpose } });
  if (Math.max(prepared.width, prepared.height) > upload.maxLongSide) {
    // The server wants smaller images than this build of the app knows about: convert again to its size.
    prepared = await toStartImagePng(image.file, upload.maxLongSide, upload.maxBytes);
    upload = await api.createUpload({ body: { contentType: 'image/png', size: prepared.blob.size, purpose } });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  // S3 reads every field before the file, so the file goes last.
  form.append('file', prepared.blob, 'start-image.png');
  let res: Response;
  try {
    res = await fetch(upload.url, { method: 'POST', body: form });
  } catch {
    throw new Error('Could not upload the start image. Check your connection and try again.');
  }
  if (!res.ok) throw new Error(s3Refusal(res.status, await res.text().catch(() => '')));
  return upload.key;
}
