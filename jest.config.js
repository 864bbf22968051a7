/**
 * Jest, three projects: `app` (use-case tests with in-memory ports: no stack, seconds), `node` (everything that talks to
 * the embedded stack, which its global setup starts once per run, and the CDK tests), `web` (components in jsdom).
 * The global setup is the node project's own, so a run of `test/app` alone starts no stack.
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

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60_000,
  projects: [
    {
      displayName: 'app',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/app', '<rootDir>/test/domain'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.(t|j)sx?$': swc },
    },
    {
      displayName: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/local', '<rootDir>/test/adapters', '<rootDir>/test/api', '<rootDir>/test/journeys', '<rootDir>/test/infra'],
      testMatch: ['**/*.test.ts'],
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
