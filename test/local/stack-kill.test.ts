/**
 * The embedded stack killed with `kill -9` (no chance to stop anything) at each step of a 10 s clip and of a purchase,
 * with a stream-positions file left empty as a torn write leaves it, then started again on the same data and port:
 * it starts, every part is where it was (the PayPal simulator's orders, the ports that links point at), the clip
 * finishes, the purchase settles, and every credit moves exactly once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { WAN_T2V } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { PACK_72 } from '../support/payments';
import { restartablePort, startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { codeIn, cognito, confirmSignUp, mailFor, newEmail, signUp, DEFAULT_PASSWORD } from '../support/users';

jest.setTimeout(300_000);

const EXTRA_ENV = { SIM_VIDEO_MS: '6000', SIM_IMAGE_MS: '1500', RECONCILE_INTERVAL_MS: '3600000' };

let stack: RunningStack | undefined;
let dataDir = '';
let port = 0;

async function start(): Promise<RunningStack> {
  // The origin keeps one port across restarts, chosen where no outgoing connection can be given it meanwhile.
  port ||= await restartablePort();
  stack = await startStackProcess({ web: 'none', extraEnv: EXTRA_ENV, port, ...(dataDir ? { dataDir } : {}) });
  dataDir = stack.dataDir;
  return stack;
}

const childrenOf = (pid: number): number[] => {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/**
 * kill -9 of the stack's node process (tsx runs bin/local.ts in a child of its own): it gets no chance to stop
 * anything, and DynamoDB Local's JVM is left running, as it would be.
 */
async function killHard(): Promise<void> {
  const wrapper = stack!.child;
  const gone = new Promise((r) => wrapper.once('exit', r));
  for (const pid of childrenOf(wrapper.pid!)) {
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal')) process.kill(pid, 'SIGKILL');
  }
  wrapper.kill('SIGKILL');
  await gone;
  stack = undefined;
}

function table(s: RunningStack) {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: s.env.AWS_ENDPOINT_URL_DYNAMODB, region: s.env.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
}

async function idTokenOn(s: RunningStack): Promise<{ token: string; sub: string }> {
  const target = { baseUrl: s.url, clientId: s.env.USER_POOL_CLIENT_ID! };
  const email = newEmail('kill');
  await signUp(email, DEFAULT_PASSWORD, undefined, target);
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    code = (await mailFor(email, s.url)).map((m) => codeIn(m.text)).find(Boolean);
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  await confirmSignUp(email, code!, target);
  const auth = await cognito(s.url).send(
    new InitiateAuthCommand({ ClientId: target.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: DEFAULT_PASSWORD } }),
  );
  const token = auth.AuthenticationResult!.IdToken!;
  const sub = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
  return { token, sub };
}

const call = (token: string, p: string, init: RequestInit = {}) =>
  fetch(`${stack!.url}${p}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });

async function buy(token: string): Promise<{ orderId: string; paymentUrl: string }> {
  const res = await call(token, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, amount: PACK_72.amount, credits: PACK_72.credits }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { orderId: string; paymentUrl: string };
}

/** Presses Pay now on the simulator's approval page; where PayPal sends the browser back. */
async function approve(paymentUrl: string): Promise<string> {
  const token = new URL(paymentUrl).searchParams.get('token')!;
  const res = await fetch(new URL('/checkoutnow/approve', paymentUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

afterAll(async () => {
  if (stack) await stopStackProcess(stack.child.pid!);
  // A JVM left by a kill is ended by the next start; the last start was stopped cleanly.
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 and a restart', () => {
  it('a 10 s clip and a purchase in flight finish after kills at each step, every credit moved once', async () => {
    await start();
    const { token, sub } = await idTokenOn(stack!);

    // A purchase, killed after PayPal's approval and before the buyer's return.
    const first = await buy(token);
    const back = await approve(first.paymentUrl);
    await killHard();
    await start();
    const ret = await fetch(back, { redirect: 'manual' });
    expect(ret.headers.get('location')).toContain('payment=success');
    expect(((await (await call(token, '/api/me')).json()) as { credits: number }).credits).toBe(10 + PACK_72.credits);

    // A 10 s clip (two segments), killed while its first segment runs, with a positions file torn by the kill.
    const res = await call(token, '/api/generate-video', { method: 'POST', body: JSON.stringify({ model: WAN_T2V, prompt: 'a tide, twice', duration: 10 }) });
    expect(res.status).toBe(200);
    const { predictionId, credits } = (await res.json()) as { predictionId: string; credits: number };
    const charged = 10 + PACK_72.credits - credits;
    // A second purchase, approved at PayPal, whose buyer comes back only after the kills.
    const second = await buy(token);
    const secondBack = await approve(second.paymentUrl);
    await new Promise((r) => setTimeout(r, 1_500));
    await killHard();
    const positions = path.join(dataDir, 'stream-positions');
    const files = fs.readdirSync(positions);
    expect(files.length).toBeGreaterThan(0);
    fs.writeFileSync(path.join(positions, files[0]!), '');
    await start();

    // Killed again once the second segment has started (the first's last frame, in S3, is its start image).
    const jobKey = { pk: `JOB#${predictionId}`, sk: 'JOB' };
    await waitFor('the second segment', async () => {
      const job = (await table(stack!).send(new GetCommand({ TableName: stack!.env.TABLE_NAME, Key: jobKey, ConsistentRead: true }))).Item;
      return job?.segment === 2 ? job : undefined;
    });
    await killHard();
    await start();

    const done = await waitFor('the clip', async () => {
      const s = (await (await call(token, `/api/check-status/${predictionId}`)).json()) as { status: string; videoUrl?: string; value: number };
      return ['succeeded', 'failed', 'canceled'].includes(s.status) ? s : undefined;
    });
    expect(done.status).toBe('succeeded');
    expect((await fetch(done.videoUrl!)).status).toBe(200);

    // The second buyer comes back now: the approval PayPal kept across both kills is captured.
    const ret2 = await fetch(secondBack, { redirect: 'manual' });
    expect(ret2.headers.get('location')).toContain('payment=success');

    const expected = 10 + 2 * PACK_72.credits - charged;
    expect(((await (await call(token, '/api/me')).json()) as { credits: number }).credits).toBe(expected);
    const ledger =
      (
        await table(stack!).send(
          new QueryCommand({ TableName: stack!.env.TABLE_NAME, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :l)', ExpressionAttributeValues: { ':pk': `USER#${sub}`, ':l': 'LEDGER#' } }),
        )
      ).Items ?? [];
    expect(ledger.map((l) => l.reason).sort()).toEqual(['purchase', 'purchase', 'video', 'welcome']);
    expect(ledger.filter((l) => l.ref === first.orderId || l.ref === second.orderId)).toHaveLength(2);
  });

  it('when DynamoDB Local dies, signed-in routes answer 503 with a message, and the stack starts it again with its data', async () => {
    if (!stack) await start();
    const { token } = await idTokenOn(stack!);
    const me = async () => call(token, '/api/me');
    const before = (await (await me()).json()) as { credits: number };
    const node = childrenOf(stack!.child.pid!)[0]!;
    const java = childrenOf(node).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal'));
    expect(java).toBeDefined();
    process.kill(java!, 'SIGKILL');

    const down = await me();
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: Messages.serviceUnavailable, code: 'UNAVAILABLE' });
    // The health check says which dependency is down.
    const health = (await (await fetch(`${stack!.url}/api/health`)).json()) as { checks: Record<string, { status: string }> };
    expect(health.checks.database?.status).toBe('down');

    const back = await waitFor('DynamoDB Local restarted', async () => {
      const r = await me();
      return r.status === 200 ? ((await r.json()) as { credits: number }) : undefined;
    }, 60_000);
    expect(back.credits).toBe(before.credits);
  });
});
