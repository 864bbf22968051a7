import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './test/support/chromium';

/**
 * Browser journeys in Debian's Chromium (/usr/bin/chromium; never `playwright install`) against the
 * embedded stack serving the production build (`npm run test:e2e` builds it first). Each run gets a
 * fresh data folder and quick simulator timings.
 */
const PORT = Number(process.env.E2E_PORT ?? 5174);
// Evaluated again in each worker: the env var keeps one folder per run.
// Workers import the AWS SDK (test helpers); Node 20 is supported until 2027.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.FW_E2E_DATA ??= fs.mkdtempSync(path.join(os.tmpdir(), 'framewright-e2e-'));
// The runner (not a worker) removes the run's data once the web server has stopped.
if (process.env.TEST_WORKER_INDEX === undefined) {
  const dataDir = process.env.FW_E2E_DATA;
  process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  // One retry in CI, where a shared 2-core machine can starve a journey; the report names any flaky test.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    acceptDownloads: true,
  },
  webServer: {
    command: `node node_modules/tsx/dist/cli.mjs bin/local.ts`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      FW_WEB: 'dist',
      FW_DATA_DIR: process.env.FW_E2E_DATA,
      SIM_IMAGE_MS: process.env.SIM_IMAGE_MS ?? '1500',
      // Long enough that a loaded machine still sees a video job running before it ends.
      SIM_VIDEO_MS: process.env.SIM_VIDEO_MS ?? '7000',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // The browser's every request comes from 127.0.0.1: the edge's per-IP rate rules would count the whole run as one viewer.
      FW_EDGE_RATE_LIMITS: 'off',
    },
  },
});
