/**
 * ESLint (flat config), run by `npm test` through `npm run lint`.
 *
 * Mostly the house's import boundaries, as errors. Directory rules use import-x/no-restricted-paths, which
 * resolves each import (static, dynamic, require, re-export) to a file; the public-page rule uses the core
 * no-restricted-imports, which sees static imports only, so `import()` stays free for lazy hand-overs.
 * No typed linting (no projectService): the whole repository lints in seconds.
 * test/infra/lint-boundaries.test.ts proves each rule below with small snippets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;
const FEATURES = 'web/src/features';

/** One import-x zone: files under `target` may not import files under `from` (paths from the repository root). */
const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });

// --- Directory boundaries ----------------------------------------------------------------------------------------
const zones = [
  // Lambda code is deployed on its own: it may import contract/ and itself, nothing from the CDK app, the SPA, tests or tools.
  zone('lambdas', ['lib', 'web', 'test', 'bin', 'scripts'], 'Lambda code imports only contract/ and lambdas/.'),
  // The dev stack (local/) is for development only: bin/, test/, scripts/ and local/ itself may use it.
  zone(['contract', 'lambdas', 'lib', 'web', './*.{ts,mts,cts,js,mjs,cjs}'], 'local', 'local/ is the dev stack: only bin/, test/ and scripts/ may import it.'),
  // The contract is shared by the SPA and the Lambdas: it depends on zod and itself only (packages: see below).
  zone('contract', ['lambdas', 'lib', 'web', 'bin', 'test', 'scripts'], 'contract/ imports only zod and itself.'),
  // The CDK app names Lambda entries by path; it must not pull in the SPA or tests.
  zone('lib', ['web', 'test'], 'lib/ (CDK) must not import web/ or test/.'),
  // The SPA talks to the backend through contract/ only.
  zone('web', ['lambdas', 'lib', 'bin', 'test', 'scripts'], 'web/ may import contract/, not the backend, CDK or tests.'),

  // Hexagonal layers in lambdas/: handlers (and wiring) build adapters and pass them to use cases (app) through ports.
  // Ports are interfaces the use cases depend on, so they cannot depend on a use case.
  zone(['lambdas/ports', 'lambdas/adapters'], 'lambdas/app', 'Ports and adapters must not import use cases (lambdas/app).'),
  // Use cases see ports only: never a concrete adapter nor the Lambda entry points.
  zone('lambdas/app', ['lambdas/handlers', 'lambdas/wiring', 'lambdas/triggers'], 'Use cases must not import handlers, wiring or triggers.'),
  // Only handlers and the wiring module choose concrete adapters.
  zone(
    ['lambdas/!(handlers|wiring|adapters)/**', 'lambdas/*.ts'],
    'lambdas/adapters',
    'Only lambdas/handlers/ and lambdas/wiring/ may import adapters: use a port.',
  ),
  // domain/ is pure shared logic (ids, keys, rate-limit math): it depends on nothing above it.
  zone(
    'lambdas/domain',
    ['lambdas/app', 'lambdas/ports', 'lambdas/handlers', 'lambdas/wiring', 'lambdas/triggers'],
    'lambdas/domain/ is pure: it must not import app, ports, adapters, handlers or wiring.',
  ),
];

// --- Features talk to each other through their index.ts ----------------------------------------------------------
/**
 * Deep imports into another feature that are allowed on purpose, importer feature -> files of the imported one.
 * features/payments/index.ts also loads the signed-in parts (session, credits), which the landing page must not
 * fetch up front, so marketing imports the light modules it needs by path (see that index's comment).
 */
const DEEP_IMPORT_EXCEPTIONS = {
  marketing: { payments: ['./payment-messages.ts', './use-payment-return.ts', './use-pending-outcome.ts', './payment-outcome-api.ts', './buy-link.ts'] },
};
const features = fs
  .readdirSync(path.join(ROOT, FEATURES), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
for (const feature of features) {
  const message = `Import another feature through its index (../${feature}), not a file inside it.`;
  const special = Object.keys(DEEP_IMPORT_EXCEPTIONS).filter((importer) => DEEP_IMPORT_EXCEPTIONS[importer][feature]);
  const others = [feature, ...special].join('|');
  zones.push(zone(`${FEATURES}/!(${others})/**`, `${FEATURES}/${feature}`, message, ['./index.ts', './index.tsx']));
  for (const importer of special) {
    zones.push(zone(`${FEATURES}/${importer}/**`, `${FEATURES}/${feature}`, message, ['./index.ts', './index.tsx', ...DEEP_IMPORT_EXCEPTIONS[importer][feature]]));
  }
}

// --- Package rules (core no-restricted-imports: static imports only; a later file group replaces an earlier one's list) --
/** Lambda bundles (test/infra/bundles.test.ts): `import { z } from 'zod'` is not tree-shaken; use `import * as z`. */
const ZOD = String.raw`/^zod($|\/)/`;
const zodNamespaceOnly = [
  `ImportDeclaration[importKind='value'][source.value=${ZOD}] > ImportSpecifier[importKind='value'][imported.name='z']`,
  `ImportDeclaration[importKind='value'][source.value=${ZOD}] > ImportDefaultSpecifier`,
].map((selector) => ({ selector, message: "Use `import * as z from 'zod'`: esbuild cannot tree-shake the `z` object." }));

/** Packages never in a public page's initial JavaScript (FORBIDDEN_PACKAGES in test/bench/web-bundle.ts). */
const publicPagePackages = {
  group: ['aws-amplify', 'aws-amplify/*', '@aws-amplify/*', 'zod', 'zod/*', '@tanstack/*'],
  allowTypeImports: true,
  message: 'Public pages load no Amplify, zod or TanStack Query up front (npm run bench:web, test/web/marketing-bundle.test.ts): use a dynamic import().',
};
/** Pages and shared components read the location and navigate through web/src/lib/navigation.tsx, never the router itself. */
const routerThroughNavigation = {
  group: ['react-router', 'react-router/*', 'react-router-dom', 'react-router-dom/*'],
  allowTypeImports: true,
  message: 'Public pages and shared components use web/src/lib/navigation.tsx (useNavigation, AppLink), not react-router directly.',
};
/** Public pages are routes of the app's router (web/src/app/router.tsx), which imports them: never the other way round. */
const publicPageAppCode = [
  {
    // ../app/..., ../../app/... except the shared marketing frame, which is part of every public page.
    regex: String.raw`^(\.\./)+app(/(?!layouts/marketing-frame$).*)?$`,
    allowTypeImports: true,
    message: 'Public pages do not import web/src/app/ (the router imports them; the frame is the one shared layout).',
  },
  {
    // ../auth/... (from a feature) or ../features/auth/... (from web/src/app).
    regex: String.raw`^(\.\./)+(features/)?auth(/.*)?$`,
    allowTypeImports: true,
    message: 'Public pages must not load the auth feature (Amplify) up front: use a dynamic import().',
  },
];

/** The public pages (PUBLIC_PAGE_SOURCES in contract/site.ts, prerendered by scripts/build-web.ts) and the not-found page. */
const PUBLIC_PAGES = ['web/src/features/marketing/**', 'web/src/features/legal/**', 'web/src/pages/**'];
/** What every public page loads with it (the entry, the router, the layout) and the modules they import statically: packages only. */
const PUBLIC_SHARED = [
  'web/src/main.ts',
  'web/src/app/{app-entry,app,router,router-navigation,public-pages,server-entry,route-error,start-error-page,config-error-page}.tsx',
  'web/src/app/{public-pages,router-navigation}.ts',
  'web/src/app/layouts/marketing-layout.tsx',
  'web/src/components/**',
  'web/src/lib/**',
  'web/src/app/layouts/{marketing-frame,footer,site-header,nav-items,skip-link}.tsx',
];

const CODE = ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'];

export default defineConfig(
  {
    ignores: ['web/dist/', 'cdk.out/', '.data/', 'coverage/', 'test-results/', 'playwright-report/', '.cognito/', '**/*.d.ts'],
  },
  {
    // typescript-eslint's recommended set, syntax only (no projectService, so no type-checked rules).
    files: CODE,
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(ROOT, 'tsconfig.json') })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones }],
      'no-restricted-syntax': ['error', ...zodNamespaceOnly],
      // `{} extends T` (are all of T's keys optional?) is the idiom for `{}`; empty interfaces are still reported.
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }],
      // A leading underscore marks a binding kept on purpose (`const { pk: _pk, ...item } = row`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],

      // A few correctness rules from eslint:recommended that TypeScript does not already cover.
      'no-async-promise-executor': 'error',
      'no-compare-neg-zero': 'error',
      'no-cond-assign': ['error', 'except-parens'],
      'no-constant-binary-expression': 'error',
      'no-control-regex': 'error',
      'no-debugger': 'error',
      'no-dupe-else-if': 'error',
      'no-duplicate-case': 'error',
      'no-empty-character-class': 'error',
      'no-empty-pattern': 'error',
      'no-invalid-regexp': 'error',
      'no-loss-of-precision': 'error',
      'no-misleading-character-class': 'error',
      'no-self-assign': 'error',
      'no-self-compare': 'error',
      'no-sparse-arrays': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-optional-chaining': 'error',
      'no-unused-private-class-members': 'error',
      'use-isnan': 'error',
      'valid-typeof': 'error',
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Hooks called in order and effects that list what they read: the two classic React rules, not the compiler's set.
    files: ['web/**/*.{ts,tsx}', 'test/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // CDK template assertions walk untyped CloudFormation JSON.
    files: ['test/infra/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // contract/ depends on zod (namespace import) and its own files only: no Node built-ins, no AWS, no React.
    files: ['contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: String.raw`^(?!zod(/|$)|\.\.?/)`, message: 'contract/ imports only zod and itself.' }] },
      ],
    },
  },
  {
    // Public pages: their initial JavaScript stays small (budget in npm run bench:web) and free of Amplify and zod.
    files: PUBLIC_PAGES,
    rules: { 'no-restricted-imports': ['error', { patterns: [publicPagePackages, routerThroughNavigation, ...publicPageAppCode] }] },
  },
  {
    // The modules every public page loads with it: the same packages are off limits.
    files: PUBLIC_SHARED,
    // the config validator (zod/mini), loaded with import() by lib/config-state.ts; the query client, imported only by
    // signed-in features
    ignores: ['web/src/lib/config.ts', 'web/src/lib/query-client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [publicPagePackages] }] },
  },
  {
    files: ['web/src/components/**', 'web/src/lib/**', 'web/src/app/layouts/{marketing-frame,footer,site-header,nav-items,skip-link}.tsx'],
    ignores: ['web/src/lib/config.ts', 'web/src/lib/query-client.ts'], // as above
    rules: { 'no-restricted-imports': ['error', { patterns: [publicPagePackages, routerThroughNavigation] }] },
  },
);
