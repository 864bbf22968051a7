/**
 * `npm start`: the whole product on this machine (DynamoDB Local, s3rver, cognito-local, local SES,
 * the local API gateway and the web app). Ctrl-C stops every part; data stays under .data/.
 */
import path from 'node:path';
import { startStack } from '../local/stack';

// Node 20 is supported until the SDK's January 2027 releases; cognito-local still uses SDK v2.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE ??= '1';

async function main() {
  const started = Date.now();
  const web = (process.env.FW_WEB ?? 'dev') as 'dev' | 'dist' | 'none';
  const stack = await startStack({
    dataDir: path.resolve(process.env.FW_DATA_DIR ?? '.data'),
    port: Number(process.env.PORT ?? 5173),
    web,
    log: process.env.FW_QUIET ? () => undefined : (l) => console.log(l),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nFramewright is running (ready in ${seconds} s)\n`);
  console.log(`  App           ${stack.url}`);
  console.log(`  API health    ${stack.url}/api/health`);
  console.log(`  Dev mailbox   ${stack.url}/_dev/mailbox`);
  console.log(`\nPress Ctrl-C to stop.`);
  // One machine-readable line for tests and scripts that start the stack as a child process.
  console.log(`FRAMEWRIGHT_READY ${JSON.stringify({ url: stack.url, env: stack.env })}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping...`);
    const force = setTimeout(() => process.exit(1), 8000);
    await stack.stop();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(`Could not start the local stack: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
