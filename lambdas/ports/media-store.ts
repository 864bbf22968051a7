export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
  key: string;
}

/** The private media bucket. */
export interface MediaStore {
  /** A presigned POST that S3 itself limits to this key, this content type and 1..maxBytes bytes. */
  presignUpload(key: string, maxBytes: number, contentType: string, expiresSeconds: number): Promise<PresignedUpload>;
  /** A presigned GET; with a file name, the browser downloads it under that name. */
  presignGet(key: string, expiresSeconds: number, downloadName?: string): Promise<string>;
  /** The first bytes of an object, or undefined when there is none. */
  head(key: string, bytes: number): Promise<{ size: number; contentType?: string; start: Buffer } | undefined>;
  /** Downloads a provider's output and stores it under key. */
  copyFromUrl(url: string, key: string, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
}
