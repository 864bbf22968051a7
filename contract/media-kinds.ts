/**
 * What follows from a result being an image or a video, in one place: the file it is saved as, where it lives, how
 * large it may be, and the words and the status answer's field that name it. A registry entry says only its kind
 * (`ModelDef.kind`); the server and the web read the rest here, so they look the kind up instead of branching on it,
 * and a new kind is one entry below (the type-check then asks every media view for its own rendering).
 *
 * Plain values, no zod: the web app and public pages may import it.
 */
import { Messages } from './errors';

export interface MediaKindDef {
  /** The type every saved file of this kind is (the plans ask each model for it) and is checked as. */
  contentType: 'image/png' | 'video/mp4';
  extension: string;
  /** A result's object key: `users/<sub>/<folder>/<fileNamePrefix><timestamp>-<id>.<extension>` (the spec's paths). */
  folder: string;
  fileNamePrefix: string;
  /** The largest provider output we store (bytes); the copy stops as soon as a stream exceeds it. */
  maxBytes: number;
  /** The spec's words when a job of this kind fails for a reason the user cannot act on. */
  failed: string;
  /** The spec's words for a missing prompt on this kind's generator. */
  promptMissing: string;
  /** The field of GET /api/check-status's answer that carries a finished result's URL. */
  statusUrlField: 'imageUrl' | 'videoUrl';
  /** The word for one result of this kind, as the spec's buttons and notices say it ("Generate Image", "Video ready"). */
  noun: 'Image' | 'Video';
}

export const MEDIA_KINDS = {
  image: {
    contentType: 'image/png',
    extension: 'png',
    folder: 'images',
    fileNamePrefix: '',
    maxBytes: 20 * 1024 * 1024,
    failed: Messages.imageGenerationFailed,
    promptMissing: Messages.enterPrompt,
    statusUrlField: 'imageUrl',
    noun: 'Image',
  },
  video: {
    contentType: 'video/mp4',
    extension: 'mp4',
    folder: 'videos',
    fileNamePrefix: 'video-',
    maxBytes: 200 * 1024 * 1024,
    failed: Messages.videoGenerationFailed,
    promptMissing: Messages.promptRequired,
    statusUrlField: 'videoUrl',
    noun: 'Video',
  },
} as const satisfies Record<string, MediaKindDef>;

export type MediaKind = keyof typeof MEDIA_KINDS;

/** Every kind, for a schema's enum. */
export const MEDIA_KIND_IDS = Object.keys(MEDIA_KINDS) as [MediaKind, ...MediaKind[]];

/** A stored record's kind, if it is one (records are read from the table's stream untyped). */
export const isMediaKind = (v: unknown): v is MediaKind => typeof v === 'string' && Object.hasOwn(MEDIA_KINDS, v);
