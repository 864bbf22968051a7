/**
 * Content credentials: a signed C2PA manifest embedded in every file we store, saying it was made by a trained
 * model (IPTC's `trainedAlgorithmicMedia`), which model and version, and when, with Framewright as the claim generator.
 */
export type CredentialedType = 'image/png' | 'video/mp4';

export interface Provenance {
  /** The model's Replicate name, e.g. stability-ai/sdxl. */
  model: string;
  /** The model version the run used, when the registry pins one. */
  version?: string;
  /** When the file was made (the job's creation). */
  createdAt: string;
}

export interface ContentCredentials {
  /** The file with its manifest embedded and signed. Throws when the file is not of the type given. */
  sign(file: Buffer, type: CredentialedType, provenance: Provenance): Promise<Buffer>;
}
