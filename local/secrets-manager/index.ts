/**
 * A local Secrets Manager: the JSON 1.1 protocol of the real API (`X-Amz-Target: secretsmanager.<Operation>`) for the
 * operations the app and its rotation use, with the service's version and staging-label rules and its error names, so
 * the handlers read secrets through the AWS SDK and Powertools Parameters exactly as in the cloud
 * (`AWS_ENDPOINT_URL_SECRETS_MANAGER`). Written by hand: no maintained emulator of Secrets Manager runs without Docker
 * or a Python service, and the app needs only these six operations. Kept under `.data/secrets-manager/`.
 *
 * Rules kept from the service:
 * - a version holds its value and its staging labels; each label is on one version at most;
 * - moving AWSCURRENT (PutSecretValue's default, UpdateSecretVersionStage) moves AWSPREVIOUS to the version it left;
 * - RotateSecret makes the version of its ClientRequestToken with AWSPENDING and no value, then calls the rotation
 *   function's createSecret, setSecret, testSecret and finishSecret in turn, after answering; once finishSecret
 *   returns, AWSPENDING is taken off;
 * - a version or label that is not there is a ResourceNotFoundException; a label held by another version than
 *   RemoveFromVersionId names is an InvalidParameterException; a rotation asked for with no rotation function is an
 *   InvalidRequestException.
 */
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { readBody, TOO_LARGE } from '../shared/http';

export const CURRENT = 'AWSCURRENT';
export const PREVIOUS = 'AWSPREVIOUS';
export const PENDING = 'AWSPENDING';

const OPERATIONS = ['CreateSecret', 'GetSecretValue', 'PutSecretValue', 'DescribeSecret', 'RotateSecret', 'UpdateSecretVersionStage'] as const;
export type SecretsOperation = (typeof OPERATIONS)[number];

/** The rotation steps a rotation function is called with, in this order. */
export const ROTATION_STEPS = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const;
export interface RotationEvent {
  Step: (typeof ROTATION_STEPS)[number];
  SecretId: string;
  ClientRequestToken: string;
}

/** An answer in the service's terms: 200 with a body, or 400 (500 for our own faults) with `__type` and `message`. */
export interface SecretsAnswer {
  status: number;
  body: Record<string, unknown>;
}

export class SecretsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/**
 * One request in the service's wire format, parsed: the operation (from `X-Amz-Target`) and its input. The one
 * parser of the protocol, so a front that sits on this server's endpoint (an IAM check that must know which function
 * calls which operation on which secret) reads requests exactly as the server does.
 */
export function parseSecretsManagerRequest(
  headers: Record<string, string | string[] | undefined>,
  body: Buffer | string,
): { operation: SecretsOperation; input: Record<string, unknown> } | { error: SecretsError } {
  const target = String(headers['x-amz-target'] ?? '');
  const [service, operation] = target.split('.');
  if (service !== 'secretsmanager' || !OPERATIONS.includes(operation as SecretsOperation)) {
    return { error: new SecretsError('UnknownOperationException', `Operation ${operation ?? target} is not supported.`) };
  }
  let input: unknown;
  try {
    input = JSON.parse(body.toString() || '{}');
  } catch {
    return { error: new SecretsError('SerializationException', 'The request body is not valid JSON.') };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { error: new SecretsError('SerializationException', 'The request body must be a JSON object.') };
  }
  return { operation: operation as SecretsOperation, input: input as Record<string, unknown> };
}

interface Version {
  id: string;
  /** Absent on the version RotateSecret makes before createSecret fills it. */
  value?: string;
  stages: string[];
  created: number;
}

interface Secret {
  arn: string;
  name: string;
  description?: string;
  created: number;
  lastChanged: number;
  lastRotated?: number;
  rotationLambdaArn?: string;
  rotationDays?: number;
  versions: Version[];
}

export interface SecretsManagerOptions {
  /** Where the secrets are kept (a JSON file in it); they survive a restart. */
  dataDir: string;
  region: string;
  accountId?: string;
  /** Runs one step of a rotation: the local stand-in of invoking the rotation function's ARN. */
  invokeRotation?: (lambdaArn: string, event: RotationEvent) => Promise<void>;
  log?: (line: string) => void;
}

export interface LocalSecretsManager {
  /** One operation, in process, with the same rules and errors as over HTTP. */
  call(operation: SecretsOperation, input: Record<string, unknown>): Promise<SecretsAnswer>;
  /** The HTTP handler of the wire protocol (what `listen` serves). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Serves the protocol on 127.0.0.1:`port` (0: a free one); resolves to its endpoint. */
  listen(port: number): Promise<string>;
  /** Resolves when no rotation runs (tests and shutdown). */
  rotationsSettled(): Promise<void>;
  close(): Promise<void>;
}

const seconds = (ms: number) => ms / 1000;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function localSecretsManager(o: SecretsManagerOptions): LocalSecretsManager {
  const account = o.accountId ?? '000000000000';
  const file = path.join(o.dataDir, 'secrets.json');
  fs.mkdirSync(o.dataDir, { recursive: true });
  const secrets: Secret[] = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Secret[]) : [];
  const save = () => fs.writeFileSync(file, JSON.stringify(secrets, null, 2));
  const rotations = new Map<string, Promise<void>>();

  function find(id: unknown): Secret {
    const secretId = str(id);
    if (!secretId) throw new SecretsError('InvalidParameterException', 'You must provide a SecretId.');
    // By name, by full ARN, or by an ARN without the six random characters the service appends to the name.
    const s = secrets.find((x) => x.name === secretId || x.arn === secretId || x.arn.slice(0, -7) === secretId);
    if (!s) throw new SecretsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return s;
  }

  function versionOf(s: Secret, versionId: string | undefined, stage: string | undefined): Version {
    const v = versionId ? s.versions.find((x) => x.id === versionId) : s.versions.find((x) => x.stages.includes(stage ?? CURRENT));
    if (!v || (versionId && stage && !v.stages.includes(stage))) {
      const what = versionId ? `VersionId: ${versionId}${stage ? ` and staging label: ${stage}` : ''}` : `staging label: ${stage ?? CURRENT}`;
      throw new SecretsError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for ${what}`);
    }
    return v;
  }

  /** Puts `stage` on `v`, off every other version; AWSCURRENT leaving a version leaves AWSPREVIOUS on it. */
  function label(s: Secret, v: Version, stage: string): void {
    if (!v.stages.includes(stage)) v.stages.push(stage);
    for (const other of s.versions) {
      if (other === v || !other.stages.includes(stage)) continue;
      other.stages = other.stages.filter((x) => x !== stage);
      if (stage === CURRENT) label(s, other, PREVIOUS);
    }
    // A version with no label left is deprecated; the service deletes it in time.
    s.versions = s.versions.filter((x) => x.stages.length > 0);
  }

  function putValue(s: Secret, token: string, value: string, stages: string[]): Version {
    const existing = s.versions.find((x) => x.id === token);
    if (existing?.value !== undefined) {
      if (existing.value !== value) {
        throw new SecretsError('ResourceExistsException', `A version with VersionId ${token} already exists with a different value.`);
      }
      return existing; // the same request again: idempotent
    }
    const v: Version = existing ?? { id: token, stages: [], created: Date.now() };
    v.value = value;
    if (!existing) s.versions.push(v);
    for (const stage of stages) label(s, v, stage);
    s.lastChanged = Date.now();
    return v;
  }

  function secretString(input: Record<string, unknown>): string {
    const value = input.SecretString;
    if (typeof value !== 'string' || value.length === 0) {
      throw new SecretsError('InvalidParameterException', 'You must provide either SecretString or SecretBinary.');
    }
    if (Buffer.byteLength(value) > 65_536) throw new SecretsError('InvalidParameterException', 'The secret value exceeds 65536 bytes.');
    return value;
  }

  async function rotate(s: Secret, token: string): Promise<void> {
    const lambdaArn = s.rotationLambdaArn!;
    try {
      for (const step of ROTATION_STEPS) {
        if (!o.invokeRotation) throw new Error('no rotation function can be invoked here');
        await o.invokeRotation(lambdaArn, { Step: step, SecretId: s.arn, ClientRequestToken: token });
      }
      const v = s.versions.find((x) => x.id === token);
      if (v) v.stages = v.stages.filter((x) => x !== PENDING);
      s.lastRotated = Date.now();
      save();
      o.log?.(`[secrets] rotated ${s.name}`);
    } catch (err) {
      // As in the service: the failure is the rotation function's log; AWSPENDING stays for the next attempt.
      o.log?.(`[secrets] rotation of ${s.name} failed: ${(err as Error).message}`);
    }
  }

  const ops: Record<SecretsOperation, (input: Record<string, unknown>) => Record<string, unknown>> = {
    CreateSecret(input) {
      const name = str(input.Name);
      if (!name || !/^[A-Za-z0-9/_+=.@-]{1,512}$/.test(name)) throw new SecretsError('InvalidParameterException', 'Invalid name.');
      if (secrets.some((x) => x.name === name)) {
        throw new SecretsError('ResourceExistsException', `The operation failed because the secret ${name} already exists.`);
      }
      const now = Date.now();
      const suffix = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 6);
      const s: Secret = { arn: `arn:aws:secretsmanager:${o.region}:${account}:secret:${name}-${suffix}`, name, created: now, lastChanged: now, versions: [] };
      if (str(input.Description)) s.description = String(input.Description);
      const value = input.SecretString === undefined ? undefined : secretString(input);
      secrets.push(s);
      const v = value === undefined ? undefined : putValue(s, str(input.ClientRequestToken) ?? randomUUID(), value, [CURRENT]);
      return { ARN: s.arn, Name: s.name, ...(v ? { VersionId: v.id } : {}) };
    },
    GetSecretValue(input) {
      const s = find(input.SecretId);
      const v = versionOf(s, str(input.VersionId), str(input.VersionStage));
      if (v.value === undefined) {
        throw new SecretsError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for VersionId: ${v.id}`);
      }
      return { ARN: s.arn, Name: s.name, VersionId: v.id, SecretString: v.value, VersionStages: [...v.stages], CreatedDate: seconds(v.created) };
    },
    PutSecretValue(input) {
      const s = find(input.SecretId);
      const stages = Array.isArray(input.VersionStages) ? input.VersionStages.map(String) : [CURRENT];
      const v = putValue(s, str(input.ClientRequestToken) ?? randomUUID(), secretString(input), stages);
      return { ARN: s.arn, Name: s.name, VersionId: v.id, VersionStages: [...v.stages] };
    },
    DescribeSecret(input) {
      const s = find(input.SecretId);
      return {
        ARN: s.arn,
        Name: s.name,
        ...(s.description ? { Description: s.description } : {}),
        RotationEnabled: Boolean(s.rotationLambdaArn),
        ...(s.rotationLambdaArn ? { RotationLambdaARN: s.rotationLambdaArn, RotationRules: { AutomaticallyAfterDays: s.rotationDays } } : {}),
        ...(s.lastRotated ? { LastRotatedDate: seconds(s.lastRotated) } : {}),
        LastChangedDate: seconds(s.lastChanged),
        CreatedDate: seconds(s.created),
        VersionIdsToStages: Object.fromEntries(s.versions.map((v) => [v.id, [...v.stages]])),
      };
    },
    RotateSecret(input) {
      const s = find(input.SecretId);
      const lambdaArn = str(input.RotationLambdaARN) ?? s.rotationLambdaArn;
      if (!lambdaArn) {
        throw new SecretsError('InvalidRequestException', 'No Lambda rotation function ARN is associated with this secret.');
      }
      if (rotations.has(s.arn)) {
        throw new SecretsError('InvalidRequestException', "A previous rotation isn't complete. That rotation will be reattempted.");
      }
      s.rotationLambdaArn = lambdaArn;
      const rules = input.RotationRules as { AutomaticallyAfterDays?: number } | undefined;
      if (rules?.AutomaticallyAfterDays !== undefined) s.rotationDays = rules.AutomaticallyAfterDays;
      s.rotationDays ??= 30;
      const token = str(input.ClientRequestToken) ?? randomUUID();
      if (input.RotateImmediately === false) {
        save();
        return { ARN: s.arn, Name: s.name };
      }
      const existing = s.versions.find((x) => x.id === token);
      if (existing?.value !== undefined && !existing.stages.includes(PENDING)) {
        throw new SecretsError('ResourceExistsException', `A version with VersionId ${token} already exists.`);
      }
      if (!existing) s.versions.push({ id: token, stages: [], created: Date.now() });
      label(s, s.versions.find((x) => x.id === token)!, PENDING);
      save();
      const run = rotate(s, token).finally(() => rotations.delete(s.arn));
      rotations.set(s.arn, run);
      return { ARN: s.arn, Name: s.name, VersionId: token };
    },
    UpdateSecretVersionStage(input) {
      const s = find(input.SecretId);
      const stage = str(input.VersionStage);
      if (!stage) throw new SecretsError('InvalidParameterException', 'You must provide a VersionStage.');
      const moveTo = str(input.MoveToVersionId);
      const removeFrom = str(input.RemoveFromVersionId);
      const holder = s.versions.find((x) => x.stages.includes(stage));
      if (holder && moveTo && holder.id !== moveTo && holder.id !== removeFrom) {
        throw new SecretsError(
          'InvalidParameterException',
          `The parameter RemoveFromVersionId can't be empty. Staging label ${stage} is currently attached to version ${holder.id}, so you must explicitly reference that version in RemoveFromVersionId.`,
        );
      }
      if (removeFrom) {
        const from = versionOf(s, removeFrom, undefined);
        if (!from.stages.includes(stage)) {
          throw new SecretsError('InvalidParameterException', `Staging label ${stage} is not attached to version ${removeFrom}.`);
        }
        if (!moveTo) from.stages = from.stages.filter((x) => x !== stage);
      }
      if (moveTo) label(s, versionOf(s, moveTo, undefined), stage);
      s.lastChanged = Date.now();
      return { ARN: s.arn, Name: s.name };
    },
  };

  async function call(operation: SecretsOperation, input: Record<string, unknown>): Promise<SecretsAnswer> {
    try {
      const body = ops[operation](input);
      if (operation !== 'GetSecretValue' && operation !== 'DescribeSecret') save();
      return { status: 200, body };
    } catch (err) {
      if (err instanceof SecretsError) return { status: err.status, body: { __type: err.type, message: err.message } };
      o.log?.(`[secrets] ${operation} failed: ${(err as Error).stack}`);
      return { status: 500, body: { __type: 'InternalServiceError', message: 'An error occurred on the server side.' } };
    }
  }

  function reply(res: ServerResponse, a: SecretsAnswer): void {
    const text = JSON.stringify(a.body);
    res.writeHead(a.status, { 'content-type': 'application/x-amz-json-1.1', 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': randomUUID() });
    res.end(text);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    void (async () => {
      if (req.method !== 'POST') return reply(res, { status: 404, body: { __type: 'UnknownOperationException', message: 'Use POST.' } });
      const body = await readBody(req, 1024 * 1024);
      if (body === TOO_LARGE) return reply(res, { status: 413, body: { __type: 'RequestEntityTooLargeException', message: 'Request too large.' } });
      const parsed = parseSecretsManagerRequest(req.headers, body);
      if ('error' in parsed) return reply(res, { status: parsed.error.status, body: { __type: parsed.error.type, message: parsed.error.message } });
      reply(res, await call(parsed.operation, parsed.input));
    })().catch(() => {
      if (!res.headersSent) reply(res, { status: 500, body: { __type: 'InternalServiceError', message: 'An error occurred on the server side.' } });
    });
  }

  let server: http.Server | undefined;
  return {
    call,
    handle,
    async listen(port) {
      server = http.createServer(handle);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async rotationsSettled() {
      await Promise.all([...rotations.values()]);
    },
    async close() {
      await Promise.all([...rotations.values()]);
      if (server) await new Promise<void>((r) => server!.close(() => r()));
    },
  };
}
