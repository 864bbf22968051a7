/**
 * Content credentials: a signed C2PA manifest embedded in every file we store, saying it was made by a trained
 * model (IPTC's `trainedAlgorithmicMedia`), which model and version, and when, with Framewright as the claim generator.
 * A file made from one of our results names that result as its ingredient, with the result's own manifest.
 */
export type CredentialedType = 'image/png' | 'video/mp4';

/** One of our stored results a file was made from, as stored (with its own content credentials, if it has them). */
export interface SourceFile {
  /** Absent when the result was deleted since: it is named, without its provenance. */
  file?: Buffer;
  type: CredentialedType;
  /** How the ingredient is titled, e.g. the result's media id and extension. */
  title: string;
}

/** How the model changed a result it was given whole (an edit; an upscale, which changes its size). */
export type Change = 'c2pa.edited' | 'c2pa.resized';

export interface Provenance {
  /** The model's Replicate name, e.g. stability-ai/sdxl. */
  model: string;
  /** The model version the run used, when the registry pins one. */
  version?: string;
  /** When the file was made (the job's creation). */
  createdAt: string;
  /** The result this file is a changed copy of (an edit, an upscale): its parent, opened and then changed. */
  parent?: { source: SourceFile; change: Change };
  /** Results given to the model that made this file (a start or end frame, the picture a variation repeats). */
  inputs?: SourceFile[];
}

export interface ContentCredentials {
  /** The file with its manifest embedded and signed. Throws when the file is not of the type given. */
  sign(file: Buffer, type: CredentialedType, provenance: Provenance): Promise<Buffer>;
}
