/**
 * Signs a file as the functions do, in a process of its own: `tsx test/support/sign-file.ts <in> <out> <type>`. Jest
 * runs tests as CommonJS, and c2pa-ts ships as ES modules only (the functions' bundle and the embedded stack load it
 * as such).
 */
import fs from 'node:fs';
import { c2paContentCredentials } from '../../lambdas/adapters/c2pa-content-credentials';
import { makeLocalSigningCredential } from '../../lambdas/adapters/content-credentials-cert';
import type { CredentialedType } from '../../lambdas/ports/content-credentials';

async function main(): Promise<void> {
  const [input, output, type] = process.argv.slice(2) as [string, string, CredentialedType];
  const signer = c2paContentCredentials(await makeLocalSigningCredential());
  fs.writeFileSync(output, await signer.sign(fs.readFileSync(input), type, { model: 'wan-video/wan-2.1-i2v-480p', createdAt: '2026-11-26T00:00:00.000Z' }));
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
