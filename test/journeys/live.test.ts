/**
 * The push channel on the embedded stack: real WebSockets on /live, the live-* handlers, the fan-out on DynamoDB
 * Local's stream, and the @connections stand-in. What a browser tab observes: its owner's balance, jobs and media,
 * and nothing of anybody else's.
 */
import { ApiGatewayManagementApiClient, GoneException, PayloadTooLargeException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { LIVE_PROTOCOL, type LiveMessage } from '../../contract/live';
import { drain, openLive, type LiveClient } from '../support/live';
import { json, userItems } from '../support/generation';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

const isJob = (id: string, status: string) => (m: LiveMessage) => m.type === 'job' && m.job.predictionId === id && m.job.status === status;
const generate = (user: TestUser, prompt: string) =>
  json<{ predictionId: string; credits: number }>(api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt }) }));

const open: LiveClient[] = [];
const live = async (user: TestUser) => {
  const c = await openLive(user);
  open.push(c);
  return c;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('push channel: the handshake', () => {
  it('refuses a socket without a token, with a forged token, or without the protocol; accepts a verified one with its protocol', async () => {
    const user = await createUser();
    await expect(openLive(undefined)).rejects.toThrow('handshake 401');
    const forged = `${user.idToken.slice(0, -4)}AAAA`;
    await expect(openLive(user, [LIVE_PROTOCOL, forged])).rejects.toThrow('handshake 401');
    await expect(openLive(user, ['chat', user.idToken])).rejects.toThrow('handshake 401');
    const ok = await live(user);
    expect(ok.socket.protocol).toBe(LIVE_PROTOCOL);
    expect(await userItems(user.sub, 'CONN#')).toHaveLength(1);
  });

  it('forgets a connection when its socket closes', async () => {
    const user = await createUser();
    const c = await openLive(user);
    expect(await userItems(user.sub, 'CONN#')).toHaveLength(1);
    await c.close();
    for (let i = 0; i < 50 && (await userItems(user.sub, 'CONN#')).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await userItems(user.sub, 'CONN#')).toHaveLength(0);
  });
});

describe('push channel: what each tab receives', () => {
  it("a job started in one tab appears and completes in both of its owner's tabs, with the balance and the new media; another user receives none of it", async () => {
    const [ada, bob] = await Promise.all([createUser(), createUser()]);
    await api(ada, '/api/me');
    await api(bob, '/api/me');
    await drain(); // their welcome credits are pushed before the tabs open
    const [tab1, tab2, bobTab] = await Promise.all([live(ada), live(ada), live(bob)]);

    const { predictionId } = await generate(ada, 'two tabs');
    expect(predictionId).toEqual(expect.any(String));
    for (const tab of [tab1, tab2]) {
      await tab.next((m) => m.type === 'balance' && m.credits === 9);
      await tab.next(isJob(predictionId, 'starting'));
      const done = await tab.next(isJob(predictionId, 'succeeded'));
      if (done.type !== 'job') throw new Error('not a job');
      expect(done.job).toMatchObject({ kind: 'image', prompt: 'two tabs', mediaId: expect.any(String) });
      const png = await fetch(done.job.url!);
      expect(png.headers.get('content-type')).toBe('image/png');
      await tab.next((m) => m.type === 'media' && m.change === 'added' && m.mediaId === done.job.mediaId);
    }
    await drain();
    expect(bobTab.messages).toEqual([]);
  });

  it('a failed job arrives failed with its refund, and a deleted media item is removed in every tab', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const tab = await live(user);
    const { predictionId } = await generate(user, 'will [fail]');
    const failed = await tab.next(isJob(predictionId, 'failed'));
    expect(failed.type === 'job' && failed.job.error).toBeTruthy();
    await tab.next((m) => m.type === 'balance' && m.credits === 10);

    const ok = await generate(user, 'keep me');
    const done = await tab.next(isJob(ok.predictionId, 'succeeded'));
    const mediaId = done.type === 'job' ? done.job.mediaId! : '';
    expect((await api(user, `/api/media/${mediaId}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await tab.next((m) => m.type === 'media' && m.change === 'removed' && m.mediaId === mediaId);
  });

  it('drops a connection that is gone (no close was seen) once a change is sent to it', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const table = stackEnv().TABLE_NAME;
    const old = new Date(Date.now() - 60_000).toISOString();
    const ghost = { type: 'connection', connectionId: 'Z2hvc3Rjb25uPQ==', owner: user.sub, connectedAt: old, ttl: Math.floor(Date.now() / 1000) + 3600 };
    await dynamo().send(new PutCommand({ TableName: table, Item: { pk: `USER#${user.sub}`, sk: `CONN#${ghost.connectionId}`, ...ghost } }));
    await dynamo().send(new PutCommand({ TableName: table, Item: { pk: `CONN#${ghost.connectionId}`, sk: 'CONN', ...ghost } }));
    const tab = await live(user);
    await generate(user, 'wake the fan-out');
    await tab.next((m) => m.type === 'balance' && m.credits === 9);
    await drain();
    const conns = await userItems(user.sub, 'CONN#');
    expect(conns.map((c) => c.connectionId)).not.toContain(ghost.connectionId);
    expect(conns).toHaveLength(1);
  });
});

describe('push channel: the @connections stand-in is as strict as API Gateway', () => {
  const client = () => new ApiGatewayManagementApiClient({ region: 'us-east-1', endpoint: stackEnv().LIVE_ENDPOINT_URL, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

  it('reaches a connection whose id holds the characters base64 allows', async () => {
    const user = await createUser();
    const tab = await live(user);
    const [conn] = await userItems(user.sub, 'CONN#');
    await client().send(new PostToConnectionCommand({ ConnectionId: String(conn!.connectionId), Data: new TextEncoder().encode('{"type":"balance","credits":1}') }));
    await tab.next((m) => m.type === 'balance' && m.credits === 1);
  });

  it('answers GoneException for an unknown connection, PayloadTooLargeException over 128 KB, 403 without a signature', async () => {
    await expect(client().send(new PostToConnectionCommand({ ConnectionId: 'bm9ib2R5', Data: new TextEncoder().encode('{}') }))).rejects.toBeInstanceOf(GoneException);
    const user = await createUser();
    await live(user);
    const [conn] = await userItems(user.sub, 'CONN#');
    const big = new Uint8Array(128 * 1024 + 1).fill(32);
    await expect(client().send(new PostToConnectionCommand({ ConnectionId: String(conn!.connectionId), Data: big }))).rejects.toBeInstanceOf(PayloadTooLargeException);
    const unsigned = await fetch(`${stackEnv().LIVE_ENDPOINT_URL}/@connections/${encodeURIComponent(String(conn!.connectionId))}`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(403);
  });
});
