/**
 * The whole embedded stack restarts in the middle of a video job (its own stack, on its own data folder and port,
 * started twice): the simulator resumes the prediction it kept on disk, its webhook reaches the same URL, and the
 * job completes, charged once.
 */
import fs from 'node:fs';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { WAN_T2V } from '../../contract/catalog';
import { restartablePort, startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { codeIn, cognito, confirmSignUp, mailFor, newEmail, signUp, DEFAULT_PASSWORD } from '../support/users';

jest.setTimeout(180_000);

const EXTRA_ENV = { SIM_VIDEO_MS: '6000', RECONCILE_INTERVAL_MS: '3600000' };

async function idTokenOn(stack: RunningStack): Promise<string> {
  const target = { baseUrl: stack.url, clientId: stack.env.USER_POOL_CLIENT_ID! };
  const email = newEmail('restart');
  await signUp(email, DEFAULT_PASSWORD, undefined, target);
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    code = (await mailFor(email, stack.url)).map((m) => codeIn(m.text)).find(Boolean);
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  await confirmSignUp(email, code!, target);
  const auth = await cognito(stack.url).send(
    new InitiateAuthCommand({ ClientId: target.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: DEFAULT_PASSWORD } }),
  );
  return auth.AuthenticationResult!.IdToken!;
}

const call = (stack: RunningStack, token: string, path: string, init: RequestInit = {}) =>
  fetch(`${stack.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });

describe('a restart of the whole stack mid-video', () => {
  let stack: RunningStack | undefined;
  afterAll(async () => {
    if (stack) await stopStackProcess(stack.child.pid!, stack.dataDir);
  });

  it('the job completes after the restart, charged once', async () => {
    // A port no outgoing connection can be given while the stack is down (an ephemeral one was, once).
    const port = await restartablePort();
    stack = await startStackProcess({ web: 'none', extraEnv: EXTRA_ENV, port });
    const { dataDir } = stack;
    const token = await idTokenOn(stack);
    const res = await call(stack, token, '/api/generate-video', { method: 'POST', body: JSON.stringify({ model: WAN_T2V, prompt: 'a slow tide', duration: 5 }) });
    expect(res.status).toBe(200);
    const { predictionId, credits } = (await res.json()) as { predictionId: string; credits: number };
    expect(credits).toBe(2);

    // Stopped mid-run (the prediction takes 6 s), then started again on the same data and port.
    await new Promise((r) => setTimeout(r, 1_500));
    await stopStackProcess(stack.child.pid!);
    stack = undefined;
    stack = await startStackProcess({ web: 'none', extraEnv: EXTRA_ENV, dataDir, port });
    expect(fs.existsSync(dataDir)).toBe(true);

    const deadline = Date.now() + 90_000;
    let status: { status: string; videoUrl?: string; value: number; error?: string } | undefined;
    while (Date.now() < deadline) {
      status = (await (await call(stack, token, `/api/check-status/${predictionId}`)).json()) as typeof status;
      if (status && ['succeeded', 'failed', 'canceled'].includes(status.status)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toMatchObject({ status: 'succeeded', value: 2 });
    const video = await fetch(status!.videoUrl!);
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});
