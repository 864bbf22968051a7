/** The stack's content credentials as a reader sees them: the CAI's reader, run on a file (test/support/read-content-credentials.mts). */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { Provenance } from '../../lambdas/ports/content-credentials';
import { secretsManager } from './secrets';
import { stackEnv } from './users';

const ROOT = path.resolve(__dirname, '..', '..');

/** The embedded stack's local root, which the reader is told to trust (a stage's would be its CA's). */
export async function localTrustAnchor(): Promise<string> {
  const res = await secretsManager().send(new GetSecretValueCommand({ SecretId: stackEnv().CONTENT_CREDENTIALS_ARN }));
  return (JSON.parse(res.SecretString!) as { localTrustAnchor: string }).localTrustAnchor;
}

export interface ReaderReport {
  active_manifest?: string;
  manifests: Record<
    string,
    {
      claim_generator_info?: Array<{ name: string }>;
      assertions: Array<{ label: string; data: { actions?: Array<Record<string, unknown>> } }>;
      ingredients?: Array<Record<string, unknown>>;
    }
  >;
  validation_state?: string;
  validation_status?: Array<{ code: string; explanation?: string }>;
}

/** `anchor`: the root the reader trusts (PEM); the stack's local root unless given. */
export async function readContentCredentials(file: Buffer, format: 'image/png' | 'video/mp4', anchor?: string): Promise<ReaderReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-c2pa-'));
  try {
    await writeFile(path.join(dir, 'file'), file);
    await writeFile(path.join(dir, 'anchor.pem'), anchor ?? (await localTrustAnchor()));
    const { stdout } = await tsx('read-content-credentials.mts', [path.join(dir, 'file'), format, path.join(dir, 'anchor.pem')]);
    return JSON.parse(stdout) as ReaderReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const tsx = (script: string, args: string[]) =>
  promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'test', 'support', script), ...args], { maxBuffer: 64 << 20 });

/** A file signed by our adapter with the credential given (test/support/sign-content-credentials.ts). */
export async function signWith(credential: { privateKey: string; certificateChain: string }, file: Buffer, format: 'image/png' | 'video/mp4', provenance: Provenance): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-c2pa-'));
  try {
    await writeFile(path.join(dir, 'credential.json'), JSON.stringify(credential));
    await writeFile(path.join(dir, 'file'), file);
    await tsx('sign-content-credentials.ts', [path.join(dir, 'credential.json'), path.join(dir, 'file'), format, JSON.stringify(provenance), path.join(dir, 'signed')]);
    return await readFile(path.join(dir, 'signed'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The active manifest's `c2pa.created` action. */
export function createdAction(report: ReaderReport): Record<string, unknown> | undefined {
  const manifest = report.manifests[report.active_manifest ?? ''];
  return manifest?.assertions.flatMap((a) => (a.label.startsWith('c2pa.actions') ? (a.data.actions ?? []) : [])).find((a) => a.action === 'c2pa.created');
}

/** The active manifest's ingredients (title, format, relationship, active_manifest, validation_results...). */
export function ingredientsOf(report: ReaderReport): Array<Record<string, unknown>> {
  return report.manifests[report.active_manifest ?? '']?.ingredients ?? [];
}
