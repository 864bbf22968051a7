/**
 * The import boundaries in eslint.config.mjs: each rule reports a small snippet that breaks it, and lets
 * the allowed imports next to it through. Snippets are linted as if they were files at the given paths
 * (which need not exist); the files they import are real ones, found in their folders, since the rules
 * resolve imports.
 *
 * ESLint loads its flat config with import(), which Jest's module sandbox does not offer, so the snippets
 * are linted by one plain Node process running ESLint's API (`lintText`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The rules this file tests; other findings in a snippet (an unused import) are ignored. */
const BOUNDARY_RULES = ['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax'] as const;
type BoundaryRule = (typeof BOUNDARY_RULES)[number];

interface Case {
  /** Where the snippet pretends to be, from the repository root. */
  file: string;
  code: string;
  /** The rule that must report it, or null when no boundary rule may. */
  expect: BoundaryRule | null;
}

/** A real module in `dir` (from the repository root): its path, without extension, as `importer` would import it. */
function someModule(importer: string, dir: string): string {
  const abs = path.join(ROOT, dir);
  const file = fs.readdirSync(abs).find((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
  if (!file) throw new Error(`no .ts file in ${dir} to import in a snippet`);
  return importPath(importer, path.join(dir, file));
}

/** `target` (a file from the repository root) as `importer` would import it. */
function importPath(importer: string, target: string): string {
  if (!fs.existsSync(path.join(ROOT, target))) throw new Error(`${target} does not exist: update this test`);
  const rel = path.relative(path.dirname(importer), target.replace(/\.tsx?$/, '')).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

const importFrom = (file: string, dir: string) => `import * as m from '${someModule(file, dir)}';\nexport { m };\n`;
const importFile = (file: string, target: string) => `import * as m from '${importPath(file, target)}';\nexport { m };\n`;

/** `file` importing some module of `dir`, reported by import-x/no-restricted-paths (or allowed, with `null`). */
const dirCase = (file: string, dir: string, expect: BoundaryRule | null = 'import-x/no-restricted-paths'): [string, Case] => [
  `${file} -> ${dir}/`,
  { file, code: importFrom(file, dir), expect },
];
const fileCase = (file: string, target: string, expect: BoundaryRule | null = 'import-x/no-restricted-paths'): [string, Case] => [
  `${file} -> ${target}`,
  { file, code: importFile(file, target), expect },
];
const codeCase = (name: string, file: string, code: string, expect: BoundaryRule | null): [string, Case] => [`${file}: ${name}`, { file, code, expect }];

const PROBE = '__lint_probe__';
const lambda = (dir: string) => `lambdas/${dir}/${PROBE}.ts`;
const AUTH_INDEX = 'web/src/features/auth/index.ts';
const AUTH_DEEP = 'web/src/features/auth/session-store.ts';

const violations: [string, Case][] = [
  // lambdas/ imports only contract/ and itself.
  dirCase(lambda('app'), 'local'),
  dirCase(lambda('handlers'), 'local'),
  dirCase(lambda('handlers'), 'lib'),
  dirCase(lambda('handlers'), 'web/src/lib'),
  dirCase(lambda('adapters'), 'test/support'),
  // Hexagonal layers.
  dirCase(lambda('ports'), 'lambdas/app'),
  dirCase(lambda('adapters'), 'lambdas/app'),
  dirCase(lambda('domain'), 'lambdas/app'),
  dirCase(lambda('domain'), 'lambdas/ports'),
  dirCase(lambda('domain'), 'lambdas/adapters'),
  dirCase(lambda('domain'), 'lambdas/handlers'),
  dirCase(lambda('app'), 'lambdas/adapters'),
  dirCase(lambda('app'), 'lambdas/handlers'),
  dirCase(lambda('ports'), 'lambdas/adapters'),
  dirCase(lambda('triggers'), 'lambdas/adapters'),
  // contract/: zod and itself.
  dirCase(`contract/${PROBE}.ts`, 'lambdas/domain'),
  dirCase(`contract/${PROBE}.ts`, 'web/src/lib'),
  dirCase(`contract/${PROBE}.ts`, 'lib'),
  codeCase('a Node built-in', `contract/${PROBE}.ts`, "import { randomUUID } from 'node:crypto';\nexport { randomUUID };\n", 'no-restricted-imports'),
  // lib/ (CDK).
  dirCase(`lib/${PROBE}.ts`, 'local'),
  dirCase(`lib/${PROBE}.ts`, 'web/src/lib'),
  dirCase(`lib/${PROBE}.ts`, 'test/support'),
  // web/: contract only from outside.
  dirCase(`web/src/lib/${PROBE}.ts`, 'lambdas/domain'),
  dirCase(`web/src/lib/${PROBE}.ts`, 'local'),
  dirCase(`web/src/features/account/${PROBE}.ts`, 'lib'),
  dirCase(`web/src/lib/${PROBE}.ts`, 'bin'),
  dirCase(`web/src/lib/${PROBE}.ts`, 'test/support'),
  // local/ is the dev stack.
  fileCase(`lambdas/${PROBE}.ts`, 'local/stack.ts'),
  fileCase(`${PROBE}.ts`, 'local/stack.ts'),
  // Features through their index only.
  fileCase(`web/src/features/account/${PROBE}.tsx`, AUTH_DEEP),
  fileCase(`web/src/features/account/tabs/${PROBE}.tsx`, AUTH_DEEP),
  fileCase(`web/src/features/marketing/${PROBE}.tsx`, 'web/src/features/payments/start-payment.ts'),
  // Public pages: no Amplify, zod, react-router, auth or app router up front.
  codeCase('aws-amplify', `web/src/features/legal/${PROBE}.tsx`, "import { Amplify } from 'aws-amplify';\nexport { Amplify };\n", 'no-restricted-imports'),
  codeCase('@aws-amplify/auth', `web/src/features/marketing/${PROBE}.tsx`, "import { signIn } from '@aws-amplify/auth';\nexport { signIn };\n", 'no-restricted-imports'),
  codeCase('aws-amplify/auth', `web/src/features/legal/${PROBE}.tsx`, "import { signIn } from 'aws-amplify/auth';\nexport { signIn };\n", 'no-restricted-imports'),
  codeCase('zod', `web/src/features/marketing/${PROBE}.tsx`, "import * as z from 'zod';\nexport { z };\n", 'no-restricted-imports'),
  codeCase('zod/mini', `web/src/features/legal/${PROBE}.tsx`, "import * as z from 'zod/mini';\nexport { z };\n", 'no-restricted-imports'),
  codeCase('react-router-dom', `web/src/features/marketing/${PROBE}.tsx`, "import { Link } from 'react-router-dom';\nexport { Link };\n", 'no-restricted-imports'),
  codeCase('zod in the app entry', `web/src/app/app-entry.tsx`, "import * as z from 'zod';\nexport { z };\n", 'no-restricted-imports'),
  codeCase('react-router-dom in a shared component', `web/src/components/${PROBE}.tsx`, "import { Link } from 'react-router-dom';\nexport { Link };\n", 'no-restricted-imports'),
  codeCase('zod in main.ts', 'web/src/main.ts', "import * as z from 'zod';\nexport { z };\n", 'no-restricted-imports'),
  codeCase('the auth feature', `web/src/features/marketing/${PROBE}.tsx`, "import { useSession } from '../auth';\nexport { useSession };\n", 'no-restricted-imports'),
  codeCase('the app router', `web/src/features/marketing/${PROBE}.tsx`, "import { createAppRouter } from '../../app/router';\nexport { createAppRouter };\n", 'no-restricted-imports'),
  codeCase('the app entry, statically', `web/src/features/legal/${PROBE}.tsx`, "import { startApp } from '../app/app-entry';\nexport { startApp };\n", 'no-restricted-imports'),
  codeCase('the app router', `web/src/features/marketing/${PROBE}.tsx`, "import * as r from '../../app/router';\nexport { r };\n", 'no-restricted-imports'),
  // zod as a namespace (Lambda bundles tree-shake it).
  codeCase("import { z } from 'zod'", lambda('app'), "import { z } from 'zod';\nexport { z };\n", 'no-restricted-syntax'),
  codeCase("import z from 'zod'", `contract/${PROBE}.ts`, "import z from 'zod';\nexport { z };\n", 'no-restricted-syntax'),
  codeCase("import { z } from 'zod/mini'", `web/src/lib/${PROBE}.ts`, "import { z } from 'zod/mini';\nexport { z };\n", 'no-restricted-syntax'),
];

const allowed: [string, Case][] = [
  dirCase(lambda('handlers'), 'lambdas/adapters', null),
  dirCase(lambda('wiring'), 'lambdas/adapters', null),
  dirCase('lambdas/handlers/deps.ts', 'lambdas/adapters', null),
  dirCase(lambda('adapters'), 'lambdas/ports', null),
  dirCase(lambda('adapters'), 'lambdas/domain', null),
  dirCase(lambda('app'), 'lambdas/ports', null),
  dirCase(lambda('app'), 'lambdas/domain', null),
  dirCase(lambda('handlers'), 'lambdas/app', null),
  dirCase(lambda('handlers'), 'contract', null),
  dirCase(`lib/${PROBE}.ts`, 'contract', null),
  dirCase(`web/src/lib/${PROBE}.ts`, 'contract', null),
  dirCase(`bin/${PROBE}.ts`, 'local', null),
  dirCase(`test/support/${PROBE}.ts`, 'local', null),
  dirCase(`scripts/${PROBE}.ts`, 'local', null),
  dirCase(`local/${PROBE}.ts`, 'local/shared', null),
  codeCase('zod as a namespace', `contract/${PROBE}.ts`, "import * as z from 'zod';\nexport { z };\n", null),
  codeCase('its own files', `contract/${PROBE}.ts`, "import * as c from './catalog';\nexport { c };\n", null),
  codeCase("import type { z } from 'zod'", lambda('handlers'), "import type { z } from 'zod';\nexport type Z = z.ZodType;\n", null),
  codeCase('named zod functions', lambda('app'), "import { object } from 'zod';\nexport { object };\n", null),
  // Features: through the index, or inside the feature itself.
  fileCase(`web/src/features/account/${PROBE}.tsx`, AUTH_INDEX, null),
  codeCase('../auth', `web/src/features/account/${PROBE}.tsx`, "import { useSession } from '../auth';\nexport { useSession };\n", null),
  fileCase(`web/src/features/auth/${PROBE}.tsx`, AUTH_DEEP, null),
  fileCase(`web/src/app/${PROBE}.tsx`, AUTH_DEEP, null),
  // The light payment modules the landing page needs (see features/payments/index.ts).
  fileCase(`web/src/features/marketing/${PROBE}.tsx`, 'web/src/features/payments/payment-messages.ts', null),
  // Public pages: lazy hand-over to the app, types only, the shared marketing frame.
  codeCase('import() of the app', `web/src/features/legal/${PROBE}.tsx`, "export const load = () => import('../app/app-entry');\n", null),
  codeCase('typeof import() of the app', `web/src/features/legal/${PROBE}.tsx`, "export type AppEntry = typeof import('../app/app-entry');\n", null),
  codeCase('import() of zod', `web/src/features/marketing/${PROBE}.tsx`, "export const load = () => import('zod');\n", null),
  codeCase('type-only Amplify', `web/src/features/legal/${PROBE}.tsx`, "import type { AuthUser } from 'aws-amplify/auth';\nexport type U = AuthUser;\n", null),
  codeCase('the marketing frame', `web/src/features/legal/${PROBE}.tsx`, "import { MarketingFrame } from '../app/layouts/marketing-frame';\nexport { MarketingFrame };\n", null),
  codeCase('react-router in the app', `web/src/app/${PROBE}.tsx`, "import { Link } from 'react-router-dom';\nexport { Link };\n", null),
  codeCase('zod/mini in the config validator', 'web/src/lib/config.ts', "import * as z from 'zod/mini';\nexport { z };\n", null),
];

interface Finding {
  ruleId: string | null;
  message: string;
  fatal?: boolean;
}

/** Lints every snippet in one Node process (see the file comment) and returns the findings per case. */
function lintAll(cases: Case[]): Finding[][] {
  const script = `
    import { ESLint } from 'eslint';
    import path from 'node:path';
    const cases = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const c of cases) {
      const [result] = await eslint.lintText(c.code, { filePath: path.join(process.cwd(), c.file) });
      out.push((result?.messages ?? []).map(({ ruleId, message, fatal }) => ({ ruleId, message, fatal })));
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`ESLint failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Finding[][];
}

let findings: Map<Case, Finding[]>;

beforeAll(() => {
  const cases = [...violations, ...allowed].map(([, c]) => c);
  const results = lintAll(cases);
  findings = new Map(cases.map((c, i) => [c, results[i]!]));
}, 60_000);

const describeFindings = (fs: Finding[]) => fs.map((f) => `${f.ruleId}: ${f.message}`);

describe('eslint.config.mjs import boundaries', () => {
  it.each(violations)('reports %s', (_name, c) => {
    const found = findings.get(c)!;
    expect(found.filter((f) => f.fatal)).toEqual([]);
    expect(describeFindings(found.filter((f) => f.ruleId === c.expect))).toHaveLength(1);
  });

  it.each(allowed)('allows %s', (_name, c) => {
    const found = findings.get(c)!;
    expect(found.filter((f) => f.fatal)).toEqual([]);
    expect(describeFindings(found.filter((f) => (BOUNDARY_RULES as readonly (string | null)[]).includes(f.ruleId)))).toEqual([]);
  });
});
