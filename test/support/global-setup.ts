import { startStackProcess } from './start-stack';

/** One embedded stack for the whole jest run; workers find it through the environment. */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const stack = await startStackProcess({ web: 'none' });
  process.env.FW_TEST_URL = stack.url;
  process.env.FW_TEST_ENV = JSON.stringify(stack.env);
  process.env.FW_TEST_PID = String(stack.child.pid);
  process.env.FW_TEST_DATA = stack.dataDir;
  // Handlers and adapters under test in the workers talk to the same emulators.
  Object.assign(process.env, stack.env);
  stack.child.unref();
  // Keep draining the stack's stdout (handlers log there; a closed pipe would kill the stack with EPIPE on the
  // first log line) without letting the pipe keep jest alive.
  stack.child.stdout?.removeAllListeners('data');
  stack.child.stdout?.resume();
  (stack.child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  (stack.child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
}
