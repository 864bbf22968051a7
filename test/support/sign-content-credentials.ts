/**
 * Signs a file with our own content-credentials adapter, in its own process (run by tsx): the C2PA library is ESM
 * only, and jest runs tests as CommonJS. Usage: sign-content-credentials.ts <credential JSON file> <file> <mime type>
 * <provenance JSON> <out>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { c2paContentCredentials } from '../../lambdas/adapters/c2pa-content-credentials';

const [credential, file, format, provenance, out] = process.argv.slice(2) as [string, string, 'image/png' | 'video/mp4', string, string];
void c2paContentCredentials(JSON.parse(readFileSync(credential, 'utf8')))
  .sign(readFileSync(file), format, JSON.parse(provenance))
  .then((signed) => writeFileSync(out, signed));
