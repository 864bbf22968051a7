/**
 * Reads a file's content credentials with the CAI's own reader (@contentauth/c2pa-wasm, the c2pa-rs SDK in
 * WebAssembly), trusting the anchor given, and prints what it reports as JSON. Its own process: the package is ESM
 * only, and jest runs tests as CommonJS. Usage: read-content-credentials.mts <file> <mime type> <trust anchor PEM file>
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, WasmReader } from '@contentauth/c2pa-wasm';

const [file, format, anchor] = process.argv.slice(2) as [string, string, string];
// The module's WebAssembly beside its entry (the package exports the entry only).
initSync({ module: readFileSync(fileURLToPath(new URL('c2pa_bg.wasm', import.meta.resolve('@contentauth/c2pa-wasm')))) });
const settings = JSON.stringify({ trust: { user_anchors: readFileSync(anchor, 'utf8') }, verify: { verify_trust: true } });
const reader = await WasmReader.fromBytes(format, new Uint8Array(readFileSync(file)), settings);
process.stdout.write(reader.json());
