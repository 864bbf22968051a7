import type { ContentCredentials, CredentialedType, Provenance } from '../../../lambdas/ports/content-credentials';

/** Content credentials in memory: "signs" by remembering what each file was signed with, and says so on the bytes. */
export class MemoryContentCredentials implements ContentCredentials {
  readonly signed: Array<{ type: CredentialedType; provenance: Provenance }> = [];

  async sign(file: Buffer, type: CredentialedType, provenance: Provenance): Promise<Buffer> {
    this.signed.push({ type, provenance });
    return file;
  }
}
