export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
  key: string;
}

export type CopyResult = { ok: true; bytes: number } | { ok: false; why: 'gone' | 'too-large' | 'stalled' };

/** The private media bucket. */
export interface MediaStore {
  /** A presigned POST that S3 itself limits to this key, this content type and 1..maxBytes bytes. */
  presignUpload(key: string, maxBytes: number, contentType: string, expiresSeconds: number): Promise<PresignedUpload>;
  /** A presigned GET; with a file name, the browser downloads it under that name. */
  presignGet(key: string, expiresSeconds: number, downloadName?: string): Promise<string>;
  /** The first bytes of an object, or undefined when there is none. */
  head(key: string, bytes: number): Promise<{ size: number; contentType?: string; start: Buffer } | undefined>;
  /**
   * Streams a provider's output into key, never holding it whole in memory and stopping as soon as it passes
   * maxBytes. `gone`: the URL answers 404 or 410 (the output was deleted); `too-large`: nothing is kept; `stalled`: the
   * host sent nothing for a few seconds (headers or body), so the copy was given up. Any other failure (network, 5xx,
   * S3) throws, so the caller retries.
   */
  copyFromUrl(url: string, key: string, contentType: string, maxBytes: number): Promise<CopyResult>;
  remove(key: string): Promise<void>;
  /** Deletes every object whose key starts with prefix (listed a page at a time); returns how many. */
  removeAll(prefix: string): Promise<number>;
  /** An object's bytes (at most maxBytes: a larger object throws). */
  getBytes(key: string, maxBytes: number): Promise<Buffer>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
}
