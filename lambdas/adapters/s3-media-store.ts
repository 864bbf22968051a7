import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { MediaStore } from '../ports/media-store';

/** Media up to this size is copied in memory; provider outputs are far smaller (a 10 s 1080p clip is ~10 MB). */
const MAX_COPY_BYTES = 200 * 1024 * 1024;

export function s3MediaStore(s3: S3Client, bucket: string, fetchImpl: typeof fetch = fetch): MediaStore {
  return {
    async presignUpload(key, maxBytes, contentType, expiresSeconds) {
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

    presignGet(key, expiresSeconds, downloadName) {
      return getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
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

    async copyFromUrl(url, key, contentType) {
      const res = await fetchImpl(url);
      if (!res.ok) throw new Error(`Could not download the provider's output (${res.status})`);
      const length = Number(res.headers.get('content-length') ?? 0);
      if (length > MAX_COPY_BYTES) throw new Error(`The provider's output is too large (${length} bytes)`);
      const body = Buffer.from(await res.arrayBuffer());
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },

    async remove(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
