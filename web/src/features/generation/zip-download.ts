/**
 * "Download selected": one zip made in the browser from the results' presigned download links, streamed by
 * client-zip (a maintained streaming zip writer, ~2.6 kB). It is imported when the button is pressed, so the gallery's
 * own chunk does not grow.
 */
import { MEDIA_KINDS } from '../../../../contract/media-kinds';
import type { MediaItemView } from './media-api';

/** A file name safe in a zip, and unique within it: `{prompt}-{timestamp}.png|.mp4`, as the single download names it. */
export function zipEntryName(item: Pick<MediaItemView, 'prompt' | 'createdAt' | 'type' | 'id'>, taken: Set<string>): string {
  const base = item.prompt.trim().replace(/[^\p{L}\p{N} _-]+/gu, '').replace(/\s+/g, ' ').trim().slice(0, 60) || 'prompt';
  const ext = MEDIA_KINDS[item.type].extension;
  let name = `${base}-${Date.parse(item.createdAt)}.${ext}`;
  for (let n = 2; taken.has(name); n++) name = `${base}-${Date.parse(item.createdAt)}-${n}.${ext}`;
  taken.add(name);
  return name;
}

export async function downloadZip(items: readonly MediaItemView[], fileName = 'framewright.zip'): Promise<void> {
  const { downloadZip: zip } = await import('client-zip');
  const taken = new Set<string>();
  // Files are fetched one after another as the zip is written: memory holds one at a time.
  async function* files() {
    for (const item of items) {
      const res = await fetch(item.url);
      if (!res.ok) throw new Error(`Could not download "${item.prompt.slice(0, 40)}" (HTTP ${res.status}).`);
      yield { name: zipEntryName(item, taken), input: res, lastModified: new Date(item.createdAt) };
    }
  }
  const blob = await zip(files()).blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
