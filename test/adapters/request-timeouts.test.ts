/**
 * The AWS SDK clients' request bounds (adapters/request-timeouts.ts) end a call to an endpoint that accepts the
 * connection and never answers, instead of waiting until the function is killed.
 */
import net from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DYNAMODB_REQUEST_MS, requestHandlerWithin } from '../../lambdas/adapters/request-timeouts';

describe('AWS SDK clients have request timeouts', () => {
  let server: net.Server;
  const sockets = new Set<net.Socket>();
  let endpoint = '';
  beforeAll(async () => {
    // Takes every connection and says nothing.
    server = net.createServer((s) => void sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a DynamoDB call to a silent endpoint fails with a TimeoutError after its bound', async () => {
    const client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts: 1,
      requestHandler: requestHandlerWithin(DYNAMODB_REQUEST_MS),
    });
    const t0 = Date.now();
    await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(DYNAMODB_REQUEST_MS - 100);
    expect(Date.now() - t0).toBeLessThan(DYNAMODB_REQUEST_MS + 2_000);
  });
});
