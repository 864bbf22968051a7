/**
 * The media bucket in memory. Provider outputs are URLs the test serves from `outputs` (a file, or 'stall' for a host
 * that sends nothing); an unknown URL is gone, as a deleted Replicate output is. Presigned URLs name their key, expiry
 * and download name so a test can read what a caller would be handed.
 */
import type { CopyResult, MediaStore, PresignedUpload } from '../../../lambdas/ports/media-store';

export class MemoryMediaStore implements MediaStore {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  readonly outputs = new Map<string, Buffer | 'stall'>();
  readonly uploads: Array<{ key: string; maxBytes: number; contentType: string; expiresSeconds: number }> = [];

  async presignUpload(key: string, maxBytes: number, contentType: string, expiresSeconds: number): Promise<PresignedUpload> {
    this.uploads.push({ key, maxBytes, contentType, expiresSeconds });
    return { url: 'memory://bucket/', fields: { key, 'Content-Type': contentType }, key };
  }

  async presignGet(key: string, expiresSeconds: number, downloadName?: string): Promise<string> {
    return `memory://bucket/${key}?expires=${expiresSeconds}${downloadName ? `&name=${encodeURIComponent(downloadName)}` : ''}`;
  }

  async head(key: string, bytes: number) {
    const o = this.objects.get(key);
    return o && { size: o.body.length, contentType: o.contentType, start: o.body.subarray(0, bytes) };
  }

  async copyFromUrl(url: string, key: string, contentType: string, maxBytes: number): Promise<CopyResult> {
    const o = this.outputs.get(url);
    if (o === 'stall') return { ok: false, why: 'stalled' };
    if (!o) return { ok: false, why: 'gone' };
    if (o.length > maxBytes) return { ok: false, why: 'too-large' };
    this.objects.set(key, { body: o, contentType });
    return { ok: true, bytes: o.length };
  }

  async remove(key: string) {
    this.objects.delete(key);
  }

  async removeAll(prefix: string) {
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix));
    for (const k of keys) this.objects.delete(k);
    return keys.length;
  }

  async getBytes(key: string, maxBytes: number) {
    const o = this.objects.get(key);
    if (!o) throw new Error(`NoSuchKey: ${key}`);
    if (o.body.length > maxBytes) throw new Error(`${key} is over ${maxBytes} bytes`);
    return o.body;
  }

  async put(key: string, body: Buffer, contentType: string) {
    this.objects.set(key, { body, contentType });
  }
}
