import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { CopyResult, MediaStore } from '../ports/media-store';

/** A copy ends within this (inside its function's 29 s); the stream's retry or the reconciler starts it again. */
const COPY_TIMEOUT_MS = 25_000;
/**
 * A download that sends nothing (no headers, or no byte of the body) for this long has stalled: it is given up at
 * once rather than at COPY_TIMEOUT_MS, so it holds its function, and the stream changes queued behind it, seconds
 * instead of the whole timeout. A CDN serving a file in-region never pauses this long between chunks.
 */
export const COPY_STALL_MS = 5_000;

class TooLarge extends Error {}
class Stalled extends Error {}

export function s3MediaStore(s3: S3Client, bucket: string, fetchImpl: typeof fetch = fetch): MediaStore {
  return {
    async presignUpload(key, maxBytes, contentType, expiresSeconds) {
      // The upload, presigning and multipart packages load on first use, so a function that never calls them
      // does not load them at init (each is a separate @aws-sdk package).
      const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
      // The policy also pins the bucket and the key (createPresignedPost adds both): nothing else can be written.
      const { url, fields } = await createPresignedPost(s3, {
        Bucket: bucket,
        Key: key,
        Conditions: [
          ['content-length-range', 1, maxBytes],
          ['eq', '$Content-Type', contentType],
        ],
        Fields: { 'Content-Type': contentType },
        Expires: expiresSeconds,
      });
      return { url, fields, key };
    },

    async presignGet(key, expiresSeconds, downloadName) {
      const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
      return getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          // A key is never written twice, so the browser may keep the file as long as the link lives: a result shown
          // again (gallery, viewer, the zip's fetch) is not downloaded again.
          ResponseCacheControl: `private, max-age=${expiresSeconds}, immutable`,
          ...(downloadName
            ? { ResponseContentDisposition: `attachment; filename="${downloadName.replace(/["\\]/g, '')}"; filename*=UTF-8''${encodeURIComponent(downloadName)}` }
            : {}),
        }),
        { expiresIn: expiresSeconds },
      );
    },

    async head(key, bytes) {
      try {
        const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
        const start = Buffer.from(await res.Body!.transformToByteArray());
        const total = Number(/\/(\d+)$/.exec(res.ContentRange ?? '')?.[1] ?? res.ContentLength ?? start.length);
        return { size: total, contentType: res.ContentType, start };
      } catch (err) {
        const name = (err as { name?: string }).name;
        if (name === 'NoSuchKey' || name === 'NotFound' || name === 'InvalidRange') return undefined;
        throw err;
      }
    },

    async copyFromUrl(url, key, contentType, maxBytes): Promise<CopyResult> {
      // No progress for COPY_STALL_MS aborts the download; the timer restarts with the headers and with every chunk.
      const stall = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const progressed = () => {
        clearTimeout(timer);
        timer = setTimeout(() => stall.abort(new Stalled()), COPY_STALL_MS);
      };
      progressed();
      try {
        let res: Response;
        try {
          res = await fetchImpl(url, { signal: AbortSignal.any([stall.signal, AbortSignal.timeout(COPY_TIMEOUT_MS)]) });
        } catch (err) {
          if (stall.signal.aborted) return { ok: false, why: 'stalled' };
          throw err;
        }
        progressed();
        if (res.status === 404 || res.status === 410) return { ok: false, why: 'gone' };
        if (!res.ok || !res.body) throw new Error(`Could not download the provider's output (${res.status})`);
        // A declared length is only a hint: the cap is enforced on the bytes as they stream.
        if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
          await res.body.cancel().catch(() => undefined);
          return { ok: false, why: 'too-large' };
        }
        const { Upload } = await import('@aws-sdk/lib-storage');
        let bytes = 0;
        const counted = new Transform({
          transform(chunk: Buffer, _enc, done) {
            progressed();
            bytes += chunk.length;
            done(bytes > maxBytes ? new TooLarge() : null, chunk);
          },
        });
        // pipeline: a broken download errors the upload's body too (pipe alone would leave it hanging).
        pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), counted, () => undefined);
        // lib-storage sends it in 5 MB parts (one PutObject when smaller): memory stays at a few parts, whatever the size.
        const upload = new Upload({ client: s3, params: { Bucket: bucket, Key: key, Body: counted, ContentType: contentType }, queueSize: 2 });
        try {
          await upload.done();
        } catch (err) {
          if (err instanceof TooLarge || counted.errored instanceof TooLarge) return { ok: false, why: 'too-large' };
          if (stall.signal.aborted) return { ok: false, why: 'stalled' };
          throw err;
        }
        return { ok: true, bytes };
      } finally {
        clearTimeout(timer);
      }
    },

    async remove(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async removeAll(prefix) {
      let removed = 0;
      let token: string | undefined;
      // A page of the listing (at most 1000 keys) is one DeleteObjects call (its limit is 1000 keys too).
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (objects.length) {
          const res = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
          if (res.Errors?.length) throw new Error(`Could not delete ${res.Errors.length} objects under ${prefix}: ${res.Errors[0]?.Code ?? ''}`);
          removed += objects.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return removed;
    },

    async getBytes(key, maxBytes) {
      const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if ((res.ContentLength ?? 0) > maxBytes) {
        res.Body?.transformToWebStream().cancel().catch(() => undefined);
        throw new Error(`${key} is larger than ${maxBytes} bytes`);
      }
      return Buffer.from(await res.Body!.transformToByteArray());
    },

    async put(key, body, contentType) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
  };
}
