import { exposeStackEnv, startStackProcess } from './start-stack';

/** One embedded stack for the whole jest run; workers find it through the environment. */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // Videos take 2 s in the simulator (30 s by default), so video tests settle quickly; the clips keep their asked
  // frame count, rate and size (ffmpeg encodes them in about a second). Unref'd: jest exits when done, and the global
  // teardown stops the stack.
  // Provider calls time out after 3 s (10 s by default) so the hanging-create test is quick; the reconciler runs
  // only when a test asks (POST /_dev/background/run/reconcileJobs).
  const stack = await startStackProcess({
    web: 'none',
    // The edge's per-IP rate rules are off: every test request comes from 127.0.0.1 (edge-limits.test.ts tests them).
    extraEnv: { FW_EDGE_RATE_LIMITS: 'off', FW_API_THROTTLE: 'off', FW_LAMBDA_CONCURRENCY: 'off', SIM_VIDEO_MS: '2000', REPLICATE_TIMEOUT_MS: '3000', RECONCILE_INTERVAL_MS: '3600000', RECONCILE_ASK_AFTER_TYPICAL: 'false' },
    unref: true,
  });
  exposeStackEnv(stack);
  process.env.FW_TEST_PID = String(stack.child.pid);
  process.env.FW_TEST_DATA = stack.dataDir;
}
