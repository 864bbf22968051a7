/**
 * Starts the embedded stack as a child process (the same `bin/local.ts` that `npm start` runs) on a free
 * port with a fresh data folder, and returns its URL and environment once it prints its ready line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunningStack {
  url: string;
  env: Record<string, string>;
  dataDir: string;
  child: ChildProcess;
}

const ROOT = path.resolve(__dirname, '..', '..');

export interface StartStackOptions {
  web: 'dev' | 'dist' | 'none';
  extraEnv?: Record<string, string>;
  /** Let this process exit while the stack still runs (jest's global setup: the global teardown stops it). */
  unref?: boolean;
  /** Reuse a data folder and port (a restart of a stack); by default a fresh folder and a free port. */
  dataDir?: string;
  port?: number;
  /** How long the stack may take to be ready (ms); default 60 s (a loaded machine may need more). */
  readyWithinMs?: number;
}

/**
 * A free port for a stack that will be restarted on it: below Linux's ephemeral range (32768 and up), so no outgoing
 * connection (the other stack's stream poller, the SDK's sockets) is given it as its local port while the stack is down.
 */
export async function restartablePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('No free port below the ephemeral range');
}

export function startStackProcess(opts: StartStackOptions): Promise<RunningStack> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'framewright-test-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'bin', 'local.ts')], {
    cwd: ROOT,
    // Every test and bench request comes from 127.0.0.1: the edge's per-IP rate rules are off unless extraEnv turns them on.
    env: { ...process.env, PORT: String(opts.port ?? 0), FW_DATA_DIR: dataDir, FW_WEB: opts.web, FW_QUIET: '1', FW_EDGE_RATE_LIMITS: 'off', ...opts.extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    // Output is kept (for the error message) only until the ready line. After it the pipes are still read to
    // the end: a pipe nobody reads, or one closed, kills the stack with EPIPE on its next log line, before it
    // can stop DynamoDB Local (one orphaned java per run).
    let ready = false;
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      // SIGTERM first: tsx passes it on to the stack, which stops its DynamoDB Local. A SIGKILL would end only the tsx
      // wrapper, and the stack it started would run on (holding jest open) with its java.
      void stopStackProcess(child.pid!).finally(() => child.kill('SIGKILL'));
      reject(new Error(`The stack did not start within ${(opts.readyWithinMs ?? 60_000) / 1000} s.\n${out}\n${err}`));
    }, opts.readyWithinMs ?? 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (process.env.FW_TEST_STACK_LOG) process.stderr.write(d);
      if (ready) return;
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('FRAMEWRIGHT_READY '));
      if (line) {
        ready = true;
        clearTimeout(timer);
        const { url, env } = JSON.parse(line.slice('FRAMEWRIGHT_READY '.length));
        out = '';
        err = '';
        if (opts.unref) {
          child.unref();
          for (const stream of [child.stdout, child.stderr] as Array<Socket | null>) stream?.unref();
        }
        resolve({ url, env, dataDir, child });
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      if (!ready) err += d.toString();
      if (process.env.FW_TEST_STACK_LOG) process.stderr.write(d);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The stack exited with ${code}.\n${out}\n${err}`));
    });
  });
}

/**
 * Points this process, and the workers it starts, at the stack: FW_TEST_URL and FW_TEST_ENV for the test helpers
 * (test/support/users.ts), and the stack's own environment (emulator endpoints, table and pool names) for the
 * handlers, adapters and SDK clients.
 */
export function exposeStackEnv(stack: RunningStack): void {
  process.env.FW_TEST_URL = stack.url;
  process.env.FW_TEST_ENV = JSON.stringify(stack.env);
  Object.assign(process.env, stack.env);
}

export async function stopStackProcess(pid: number, dataDir?: string): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      break;
    }
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
