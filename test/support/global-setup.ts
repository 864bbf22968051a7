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
  stack.child.stdout?.destroy();
}
