import type { Socket } from 'node:net';
import { startStackProcess } from './start-stack';

/** One embedded stack for the whole jest run; workers find it through the environment. */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // Videos take 2 s in the simulator (30 s by default) and are encoded at 4 fps (8 by default), so video tests
  // settle quickly; the clips keep their asked length and size.
  const stack = await startStackProcess({ web: 'none', extraEnv: { SIM_VIDEO_MS: '2000', SIM_VIDEO_FPS: '4' } });
  process.env.FW_TEST_URL = stack.url;
  process.env.FW_TEST_ENV = JSON.stringify(stack.env);
  process.env.FW_TEST_PID = String(stack.child.pid);
  process.env.FW_TEST_DATA = stack.dataDir;
  // Handlers and adapters under test in the workers talk to the same emulators.
  Object.assign(process.env, stack.env);
  stack.child.unref();
  // Keep draining the stack's output (unref'd, so it never keeps jest alive). A closed pipe killed the stack with
  // EPIPE on its first log line, before it could stop DynamoDB Local: one orphaned java per run.
  for (const stream of [stack.child.stdout, stack.child.stderr] as Array<Socket | null>) {
    stream?.removeAllListeners('data');
    stream?.resume();
    stream?.unref();
  }
}
