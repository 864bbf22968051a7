import { SITE_MANIFEST, SITE_ORIGIN_PLACEHOLDER } from '../../contract/site';
/** Synthesizes the Framewright app for Template tests: temp outdir, no bundling, no nag unless asked. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { BackgroundFunctionDef } from '../../contract/functions';
import type { RouteDef } from '../../contract/routes';
import { buildApp } from '../../lib/build-app';
import type { FramewrightStack } from '../../lib/framewright-stack';

export interface SynthOptions {
  context?: Record<string, unknown>;
  routes?: readonly RouteDef[];
  backgroundFunctions?: readonly BackgroundFunctionDef[];
  /** Run cdk-nag and CloudFormation's built-in validation (the nag test only). */
  validate?: boolean;
  /** A concrete account id, as the CDK CLI sets it (CDK_DEFAULT_ACCOUNT) when it has credentials. */
  account?: string;
  /** What the stand-in build's site manifest says beyond its pages (e.g. placeholderMedia). */
  site?: { placeholderMedia?: string[] };
}

export interface Synthesized {
  app: App;
  stack: FramewrightStack;
  outdir: string;
  cleanup(): void;
}

export function makeApp(options: SynthOptions = {}): Synthesized {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-'));
  const outdir = path.join(root, 'cdk.out');
  // A stand-in for web/dist, so these tests need no web build.
  const webDist = path.join(root, 'web-dist');
  fs.mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log("framewright")');
  fs.mkdirSync(path.join(webDist, '.vite'), { recursive: true });
  fs.writeFileSync(
    path.join(webDist, SITE_MANIFEST),
    JSON.stringify({ publicPaths: ['/', '/faq'], appPaths: ['/generator', '/login', '/video-generator/wan'], appShell: '/app.html', notFound: '/404.html', ...options.site }),
  );
  fs.writeFileSync(path.join(webDist, '404.html'), `<meta property="og:image" content="${SITE_ORIGIN_PLACEHOLDER}/x.webp">`);
  fs.writeFileSync(path.join(webDist, 'sitemap.xml'), `<urlset><url><loc>${SITE_ORIGIN_PLACEHOLDER}/faq</loc></url></urlset>`);
  const app = new App({
    outdir,
    context: { 'aws:cdk:bundling-stacks': [], webDist, region: 'eu-west-1', senderEmail: 'no-reply@framewright.app', ...options.context },
    builtinCloudFormationValidation: options.validate ?? false,
  });
  const cleanup = () => fs.rmSync(root, { recursive: true, force: true });
  const savedAccount = process.env.CDK_DEFAULT_ACCOUNT;
  if (options.account) process.env.CDK_DEFAULT_ACCOUNT = options.account;
  // A synth runs as an operator's shell would: without the embedded stack's endpoints, which the jest run sets for the
  // tests beside it (prod refuses to synthesise with them, as it should). Synchronous, so nothing else sees the gap.
  const emulatorEnv = withoutEmulatorEnv();
  try {
    const stack = buildApp(app, { nag: options.validate ?? false, routes: options.routes, backgroundFunctions: options.backgroundFunctions });
    return { app, stack, outdir, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  } finally {
    if (savedAccount === undefined) delete process.env.CDK_DEFAULT_ACCOUNT;
    else process.env.CDK_DEFAULT_ACCOUNT = savedAccount;
    emulatorEnv.restore();
  }
}

/**
 * Takes the embedded stack's endpoints out of this process's environment (the jest run sets them for the tests beside
 * the synth; an operator's shell has none, and prod refuses to synthesise with them) until `restore`.
 */
export function withoutEmulatorEnv(): { restore: () => void } {
  const saved = Object.entries(process.env).filter(([k]) => k.startsWith('AWS_ENDPOINT_URL') || k === 'REPLICATE_BASE_URL' || k === 'PAYPAL_BASE_URL');
  for (const [k] of saved) delete process.env[k];
  return { restore: () => saved.forEach(([k, v]) => (process.env[k] = v)) };
}

/** One synth per test file: call in beforeAll, clean up in afterAll. */
export function synthTemplate(options: SynthOptions = {}): Synthesized & { template: Template } {
  const synthesized = makeApp(options);
  try {
    return { ...synthesized, template: Template.fromStack(synthesized.stack) };
  } catch (err) {
    synthesized.cleanup();
    throw err;
  }
}

/**
 * One synth shared by a describe block's tests: made in beforeAll, its temp output removed in afterAll. Call it
 * in the describe body and read the result (`.template`, `.stack`, `.outdir`) in tests and later hooks.
 */
export function synthForSuite(options: SynthOptions = {}): Synthesized & { template: Template } {
  const suite = {} as Synthesized & { template: Template };
  beforeAll(() => {
    Object.assign(suite, synthTemplate(options));
  });
  afterAll(() => suite.cleanup?.());
  return suite;
}

/** The template of the stage's mail stack (lib/mail-stack.ts: the SES sender identity, deployed first). */
export function mailTemplate(s: Synthesized): Template {
  return Template.fromStack(s.app.node.findChild(`${s.stack.stackName}-mail`) as Stack);
}

export const TRACING_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];

type Resource = { Type: string; Properties?: Record<string, any>; [key: string]: any };

export function resourcesOfType(template: Template, type: string): [string, Resource][] {
  return Object.entries(template.findResources(type)) as [string, Resource][];
}

/** The Lambda function serving `route` (its description is "METHOD /path"). */
export function routeFunction(template: Template, route: Pick<RouteDef, 'method' | 'path'>): [string, Resource] {
  const found = resourcesOfType(template, 'AWS::Lambda::Function').filter(
    ([, r]) => r.Properties?.Description === `${route.method} ${route.path}`,
  );
  if (found.length !== 1) throw new Error(`expected one function for ${route.method} ${route.path}, found ${found.length}`);
  return found[0]!;
}

/**
 * Every allowed action of a function's role, with the resources it applies to (as JSON strings), except X-Ray's
 * PutTraceSegments and PutTelemetryRecords, which every function has for tracing (operations.test.ts checks them).
 */
export function permissionsOf(template: Template, functionId: string): Map<string, string[]> {
  const fn = template.toJSON().Resources[functionId];
  const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
  const permissions = new Map<string, string[]>();
  for (const [, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
    if (!policy.Properties!.Roles.some((r: any) => r.Ref === roleId)) continue;
    for (const statement of policy.Properties!.PolicyDocument.Statement) {
      if (statement.Effect !== 'Allow') continue;
      const resources = [statement.Resource].flat().map((r: unknown) => JSON.stringify(r));
      for (const action of [statement.Action].flat() as string[]) {
        if (TRACING_ACTIONS.includes(action)) continue;
        permissions.set(action, [...(permissions.get(action) ?? []), ...resources]);
      }
    }
  }
  return permissions;
}

/** The logical id of the only resource of `type` whose id starts with `prefix`. */
export function logicalId(template: Template, type: string, prefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  if (ids.length !== 1) throw new Error(`expected one ${type} named ${prefix}*, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}
