/**
 * The services the functions call, started one concern at a time: the stores (DynamoDB Local, s3rver, local SES),
 * cognito-local, the local Secrets Manager, the IAM fronts before all of them, and the Replicate and PayPal
 * simulators. Each keeps last run's port (`keptPorts`), so links handed out before a restart keep working after it.
 */
import path from 'node:path';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { codeMailer } from './cognito/code-mail';
import { startCognitoLocal, type CognitoLocal } from './cognito/cognito-server';
import { ensureTable, startDynamo, type LocalDynamo } from './dynamodb';
import { startLocalIam, type LocalIam } from './iam';
import { startPaypalSimulator, type PaypalSim } from './paypal-sim';
import { startReplicateSimulator, type ReplicateSim } from './replicate-sim';
import { startS3, type LocalS3 } from './s3';
import { startLocalSecrets, type LocalSecrets } from './secrets-manager/start';
import { startSes, type LocalSes } from './ses';
import { LOCAL_IDS } from './shared/local-ids';
import { LOCAL_SECRETS } from './shared/local-secrets';
import { keptPorts } from './shared/ports';
import { handlerOf } from './functions';

/** Every part with a port of its own (the IAM fronts are the addresses the functions and their presigned links use). */
const PARTS = ['dynamodb', 's3', 'ses', 'cognito', 'paypal', 'replicate', 'api', 'secrets', 'iam-dynamodb', 'iam-s3', 'iam-ses', 'iam-cognito', 'iam-secrets', 'iam-connections'] as const;

type Ports = Record<(typeof PARTS)[number], number>;

export interface ServiceContext {
  dataDir: string;
  /** The single origin's URL: links in mails and webhooks point at it. */
  url: string;
  /** The single origin by each of its names: the browser uploads to S3 straight from them. */
  origins: string[];
  ports: Ports;
  log: (line: string) => void;
  /** Registers how to stop what was started. */
  onStop: (stop: () => Promise<void>) => void;
}

export interface Services {
  dynamo: LocalDynamo;
  ses: LocalSes;
  cognito: CognitoLocal;
  secrets: LocalSecrets;
  iam: LocalIam;
  replicate: ReplicateSim;
  paypal: PaypalSim;
}

export const partPorts = (dataDir: string): Promise<Ports> => keptPorts(dataDir, PARTS);

const msFromEnv = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 && process.env[name] !== '' && process.env[name] !== undefined ? v : fallback;
};

export async function startServices(c: ServiceContext): Promise<Services> {
  const { dynamo, s3, ses } = await startStores(c);
  const cognito = await startCognito(c, ses);
  await ensureTable(dynamo.endpoint, LOCAL_IDS.tableName);
  const secrets = await startSecrets(c);
  const iam = await startIam(c, { dynamo, s3, ses, cognito, secrets });
  const { replicate, paypal } = await startSimulators(c);
  return { dynamo, ses, cognito, secrets, iam, replicate, paypal };
}

async function startStores(c: ServiceContext): Promise<{ dynamo: LocalDynamo; s3: LocalS3; ses: LocalSes }> {
  const [dynamo, s3, ses] = await Promise.all([
    startDynamo(path.join(c.dataDir, 'dynamodb'), c.ports.dynamodb, c.log),
    startS3(path.join(c.dataDir, 's3'), c.ports.s3, LOCAL_IDS.mediaBucket, c.origins, c.log),
    startSes(c.ports.ses, c.log),
  ]);
  c.onStop(dynamo.stop);
  c.onStop(s3.stop);
  c.onStop(ses.stop);
  return { dynamo, s3, ses };
}

async function startCognito(c: ServiceContext, ses: LocalSes): Promise<CognitoLocal> {
  const sesClient = new SESv2Client({ region: LOCAL_IDS.region, endpoint: ses.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const cognito = await startCognitoLocal({
    dataDir: path.join(c.dataDir, 'cognito'),
    host: '127.0.0.1',
    port: c.ports.cognito,
    region: LOCAL_IDS.region,
    userPoolId: LOCAL_IDS.userPoolId,
    userPoolClientId: LOCAL_IDS.userPoolClientId,
    sendCode: codeMailer(sesClient, LOCAL_IDS.from, c.url),
    log: c.log,
  });
  c.onStop(cognito.close);
  c.log(`[cognito] cognito-local on ${cognito.url}, pool ${LOCAL_IDS.userPoolId}`);
  return cognito;
}

async function startSecrets(c: ServiceContext): Promise<LocalSecrets> {
  const secrets = await startLocalSecrets({
    dataDir: path.join(c.dataDir, 'secrets-manager'),
    region: LOCAL_IDS.region,
    port: c.ports.secrets,
    stage: 'local',
    appKeys: {
      REPLICATE_API_TOKEN: LOCAL_SECRETS.replicateToken,
      REPLICATE_WEBHOOK_SECRET: LOCAL_SECRETS.replicateWebhookSecret,
      PAYPAL_CLIENT_ID: LOCAL_SECRETS.paypalClientId,
      PAYPAL_CLIENT_SECRET: LOCAL_SECRETS.paypalClientSecret,
      PAYPAL_WEBHOOK_ID: LOCAL_SECRETS.paypalWebhookId,
    },
    welcomeHashKey: LOCAL_SECRETS.welcomeHashKey,
    loadRotation: () => handlerOf('rotate-origin-secret'),
    log: c.log,
  });
  c.onStop(secrets.close);
  return secrets;
}

/** The functions reach every emulator through IAM: each call is evaluated against its function's statements. */
async function startIam(
  c: ServiceContext,
  s: { dynamo: LocalDynamo; s3: LocalS3; ses: LocalSes; cognito: CognitoLocal; secrets: LocalSecrets },
): Promise<LocalIam> {
  const iam = await startLocalIam({
    emulators: { dynamodb: s.dynamo.endpoint, s3: s.s3.endpoint, ses: s.ses.endpoint, cognito: s.cognito.url, secretsManager: s.secrets.endpoint },
    resources: {
      tableName: LOCAL_IDS.tableName,
      mediaBucket: LOCAL_IDS.mediaBucket,
      userPoolId: LOCAL_IDS.userPoolId,
      senderEmail: LOCAL_IDS.from,
      secretArns: { secret: s.secrets.env.SECRETS_ARN!, originSecret: s.secrets.env.ORIGIN_SECRET_ARN!, welcomeHashKey: s.secrets.env.WELCOME_HASH_KEY_ARN!, contentCredentials: s.secrets.env.CONTENT_CREDENTIALS_ARN! },
    },
    ports: {
      dynamodb: c.ports['iam-dynamodb'],
      s3: c.ports['iam-s3'],
      ses: c.ports['iam-ses'],
      cognito: c.ports['iam-cognito'],
      secretsManager: c.ports['iam-secrets'],
      connections: c.ports['iam-connections'],
    },
    log: c.log,
  });
  c.onStop(iam.close);
  return iam;
}

/** Predictions and orders survive a restart of the stack, on the same ports, as they survive anything on the providers' side. */
async function startSimulators(c: ServiceContext): Promise<{ replicate: ReplicateSim; paypal: PaypalSim }> {
  const [replicate, paypal] = await Promise.all([
    startReplicateSimulator({
      host: '127.0.0.1',
      port: c.ports.replicate,
      apiToken: LOCAL_SECRETS.replicateToken,
      webhookSecret: LOCAL_SECRETS.replicateWebhookSecret,
      imageMs: msFromEnv('SIM_IMAGE_MS', 4_000),
      videoMs: msFromEnv('SIM_VIDEO_MS', 30_000),
      jitterMs: msFromEnv('SIM_JITTER_MS', 0),
      outputTtlMs: msFromEnv('SIM_OUTPUT_TTL_MS', 3_600_000),
      hangMs: msFromEnv('SIM_HANG_MS', 60_000),
      dataDir: path.join(c.dataDir, 'replicate'),
      log: c.log,
    }),
    startPaypalSimulator({
      host: '127.0.0.1',
      port: c.ports.paypal,
      clientId: LOCAL_SECRETS.paypalClientId,
      clientSecret: LOCAL_SECRETS.paypalClientSecret,
      webhookId: LOCAL_SECRETS.paypalWebhookId,
      webhookUrl: `${c.url}/api/webhooks/paypal`,
      webhookJitterMs: msFromEnv('PAYPAL_SIM_WEBHOOK_JITTER_MS', 100),
      approvalWindowMs: msFromEnv('PAYPAL_SIM_APPROVAL_WINDOW_MS', 3 * 60 * 60 * 1000),
      dataDir: path.join(c.dataDir, 'paypal'),
      log: c.log,
    }),
  ]);
  c.onStop(replicate.close);
  c.onStop(paypal.close);
  c.log(`[replicate] simulator on ${replicate.url}`);
  c.log(`[paypal] simulator on ${paypal.url}`);
  return { replicate, paypal };
}
