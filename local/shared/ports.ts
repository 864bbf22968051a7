import net from 'node:net';
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from './atomic-file';

/**
 * A free TCP port on 127.0.0.1 for a part that listens on it a moment later. Taken below Linux's ephemeral range
 * (32768 and up), where the kernel gives no outgoing connection its local port: a port from `listen(0)` lies in that
 * range, and on a busy machine an outgoing connection was given one between this check and the part's listen
 * (EADDRINUSE at start).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return port;
  }
  throw new Error('No free port below the ephemeral range');
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}

/** Whether nothing listens on this port (on 127.0.0.1, or on every interface, which also takes it). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A port for each named part, the same as last run's when it is free (`<dataDir>/ports.json`): the real services keep
 * their addresses, and URLs handed out before a restart (an approval page, a presigned link given to a model, a
 * stored output) keep working after it. A port taken meanwhile is replaced by a free one.
 */
export async function keptPorts<K extends string>(dataDir: string, names: readonly K[]): Promise<Record<K, number>> {
  const file = path.join(dataDir, 'ports.json');
  const read = readJsonFile<Record<string, number>>(file);
  const last = typeof read === 'object' ? read.found : {};
  const out = {} as Record<K, number>;
  for (const name of names) {
    const before = last[name];
    out[name] = Number.isInteger(before) && before! > 0 && (await isFree(before!)) ? before! : await freePort();
  }
  writeFileAtomic(file, JSON.stringify({ ...last, ...out }));
  return out;
}
