/**
 * Jest, three projects: `app` (use-case tests with in-memory ports: no stack, seconds), `node` (everything that talks to
 * the embedded stack, which its global setup starts once per run, and the CDK tests), `web` (components in jsdom).
 * A port contract (test/contract/<port>.contract.ts) runs in both: `<port>-memory.test.ts` on the fakes in `app`,
 * `<port>-dynamodb.test.ts` on the adapters in `node`.
 * The global setup is the node project's own, so a run of `test/app` alone starts no stack.
 *
 * Two workers: most stack tests spend their time waiting (simulated generation times, webhooks, expiries), and each
 * keeps to its own users, jobs and orders. The files in SERIAL act on the whole stack (the reconcilers settle every
 * open job or order; the origin secret's rotation changes every call's header; invariant scans over the whole table
 * assume no other writer): `npm test` runs the rest with FW_JEST_GROUP=parallel, then these with FW_JEST_GROUP=serial,
 * one at a time on a stack of their own. With no group (`npx jest <file>`) every file is found, as before.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const SERIAL = [
  'test/journeys/generations-reconciled.test.ts',
  'test/journeys/job-faults.test.ts',
  'test/journeys/money-edges.test.ts',
  'test/journeys/output-checks.test.ts',
  'test/journeys/payments-reconcile.test.ts',
  'test/journeys/provider-queue.test.ts',
  'test/journeys/reconcile-shards.test.ts',
  'test/journeys/subscriptions-reconcile.test.ts',
  'test/journeys/wan-long-clip.test.ts',
  'test/local/secrets.test.ts',
];
const group = process.env.FW_JEST_GROUP;
if (group !== undefined && group !== 'parallel' && group !== 'serial') throw new Error(`FW_JEST_GROUP is parallel, serial or unset, not ${group}`);
const escape = (file) => `<rootDir>/${file}`.replace(/[.]/g, '\\.');

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60_000,
  maxWorkers: group === 'serial' ? 1 : 2,
  projects: [
    {
      displayName: 'app',
      testEnvironment: 'node',
      // test/contract: the in-memory runs of the port contracts (their DynamoDB runs are the node project's).
      roots: ['<rootDir>/test/app', '<rootDir>/test/domain', '<rootDir>/test/contract'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '-dynamodb\\.test\\.ts$'],
      transform: { '^.+\\.(t|j)sx?$': swc },
    },
    {
      displayName: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/local', '<rootDir>/test/adapters', '<rootDir>/test/api', '<rootDir>/test/journeys', '<rootDir>/test/infra', '<rootDir>/test/contract'],
      testMatch: group === 'serial' ? SERIAL.map((file) => `<rootDir>/${file}`) : ['**/*.test.ts'],
      // test/contract: only the port contracts' runs on the stack (their in-memory runs are the app project's).
      testPathIgnorePatterns: ['/node_modules/', '-memory\\.test\\.ts$', ...(group === 'parallel' ? SERIAL.map(escape) : [])],
      transform: { '^.+\\.(t|j)sx?$': swc },
    },
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/test/web'],
      testMatch: ['**/*.test.tsx', '**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/web-setup.ts'],
      transform: { '^.+\\.(t|j)sx?$': swc },
      moduleNameMapper: { '\\.(css)$': '<rootDir>/test/support/style-stub.js' },
    },
  ],
};
