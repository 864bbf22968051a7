/**
 * What S3 checks on a browser-based POST upload (presigned POST, Signature Version 4), so the embedded stack
 * refuses what the cloud refuses: s3rver stores any POST whatever its policy says. Rules from "Browser-Based
 * Uploads Using POST (AWS Signature Version 4)" and "Creating a POST Policy" in the Amazon S3 API reference:
 * the policy's signature, its expiration, the bucket, every condition (exact, eq, starts-with,
 * content-length-range), and every form field covered by a condition. Answers use S3's error codes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface PostUpload {
  /** Form fields in order, without the file. */
  fields: Array<[string, string]>;
  fileSize: number;
  /** Whether the file was the last part of the form (S3 ignores fields after it: we refuse them). */
  fileLast: boolean;
}

export type PolicyVerdict = { ok: true; key: string } | { ok: false; status: number; code: string; message: string };

const deny = (code: string, message: string, status = 403): PolicyVerdict => ({ ok: false, status, code, message });

/** Fields S3 does not require a condition for. */
const EXEMPT = new Set(['x-amz-signature', 'file', 'policy']);

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const kDate = createHmac('sha256', `AWS4${secret}`).update(date).digest();
  const kRegion = createHmac('sha256', kDate).update(region).digest();
  const kService = createHmac('sha256', kRegion).update(service).digest();
  return createHmac('sha256', kService).update('aws4_request').digest();
}

export function checkPostPolicy(upload: PostUpload, bucket: string, secrets: Record<string, string>, now = new Date()): PolicyVerdict {
  const form = new Map<string, string>();
  for (const [name, value] of upload.fields) {
    // S3 matches field names case-insensitively, except x-amz-meta-*; our uploads use none of those.
    form.set(name.toLowerCase(), value);
  }
  if (!upload.fileLast) return deny('InvalidArgument', 'Bucket POST must contain a field named file, and it must be the last field.', 400);
  const policyB64 = form.get('policy');
  const signature = form.get('x-amz-signature');
  const credential = form.get('x-amz-credential');
  if (!policyB64 || !signature || !credential || form.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') {
    return deny('AccessDenied', 'Bucket POST must contain a policy, x-amz-algorithm AWS4-HMAC-SHA256, x-amz-credential and x-amz-signature.');
  }
  const [accessKeyId, date, region, service, terminal] = credential.split('/');
  const secret = accessKeyId ? secrets[accessKeyId] : undefined;
  if (!secret) return deny('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (!date || !region || service !== 's3' || terminal !== 'aws4_request') return deny('AuthorizationQueryParametersError', 'Invalid credential scope.', 400);
  const expected = createHmac('sha256', signingKey(secret, date, region, service)).update(policyB64).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return deny('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }

  let policy: { expiration?: string; conditions?: unknown[] };
  try {
    policy = JSON.parse(Buffer.from(policyB64, 'base64').toString('utf8')) as typeof policy;
  } catch {
    return deny('InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.', 400);
  }
  const expires = Date.parse(policy.expiration ?? '');
  if (!Number.isFinite(expires)) return deny('InvalidPolicyDocument', 'Invalid Policy: Policy missing expiration.', 400);
  if (expires <= now.getTime()) return deny('AccessDenied', 'Invalid according to Policy: Policy expired.');

  const covered = new Set<string>();
  const field = (name: string) => (name === 'bucket' ? bucket : form.get(name));
  for (const c of policy.conditions ?? []) {
    if (Array.isArray(c)) {
      const [op, a, b] = c as [string, unknown, unknown];
      if (op === 'content-length-range') {
        const min = Number(a);
        const max = Number(b);
        if (upload.fileSize > max) return deny('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', 400);
        if (upload.fileSize < min) return deny('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', 400);
        continue;
      }
      const name = String(a).replace(/^\$/, '').toLowerCase();
      covered.add(name);
      const value = field(name) ?? '';
      if (op === 'eq' && value !== String(b)) return deny('AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}", "${String(b)}"]`);
      if (op === 'starts-with' && !value.startsWith(String(b))) {
        return deny('AccessDenied', `Invalid according to Policy: Policy Condition failed: ["starts-with", "$${name}", "${String(b)}"]`);
      }
      if (op !== 'eq' && op !== 'starts-with') return deny('InvalidPolicyDocument', `Invalid Policy: Invalid condition ${String(op)}.`, 400);
    } else if (c && typeof c === 'object') {
      for (const [k, v] of Object.entries(c)) {
        const name = k.toLowerCase();
        covered.add(name);
        if (field(name) !== String(v)) return deny('AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}", "${String(v)}"]`);
      }
    }
  }
  if (!covered.has('bucket')) return deny('AccessDenied', 'Invalid according to Policy: Policy Condition failed: bucket');
  for (const name of form.keys()) {
    if (EXEMPT.has(name) || name.startsWith('x-ignore-') || covered.has(name)) continue;
    return deny('AccessDenied', `Invalid according to Policy: Extra input fields: ${name}`);
  }
  const key = form.get('key');
  if (!key) return deny('InvalidArgument', 'Bucket POST must contain a field named key.', 400);
  return { ok: true, key };
}
