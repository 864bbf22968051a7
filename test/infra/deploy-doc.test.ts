/**
 * docs/deploy.md as tests: every `cdk` command in its shell blocks is synthesised with the doc's own flags (and an
 * account id, as the CLI has with credentials), and checked as the CLI would take it: the settings accepted, `--all`
 * or existing stack names where the app has several stacks, no placeholder left in a flag. The teardown names every
 * kind of resource the templates retain, and the idle cost the doc quotes is what `npm run cost` computes, under the
 * default budget's first alert.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { COST_STAGES, idleCost, stageTemplates } from '../../scripts/cost';
import { DEFAULT_MONTHLY_BUDGET_USD, REPO_ROOT } from '../../lib/settings';
import { makeApp, withoutEmulatorEnv } from './synth';

const DOC = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
const ACCOUNT = '123456789012';

/** Every `npx cdk ...` line of the doc's shell blocks, without what precedes it (`npm run build &&`) or a comment. */
function cdkCommands(doc: string): string[] {
  const blocks = [...doc.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).flatMap((line) => {
    const at = line.indexOf('npx cdk ');
    return at < 0 ? [] : [line.slice(at).replace(/\s+#.*$/, '').trim()];
  });
}

interface Parsed {
  sub: string;
  context: Record<string, string>;
  all: boolean;
  positional: string[];
}

function parse(command: string): Parsed {
  const words = command.split(/\s+/).slice(2);
  const parsed: Parsed = { sub: words.shift()!, context: {}, all: false, positional: [] };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-c' || w === '--context') {
      const [key, ...value] = words[++i]!.split('=');
      parsed.context[key!] = value.join('=');
    } else if (w === '--all') parsed.all = true;
    else if (w.startsWith('-')) throw new Error(`an option the test does not know: ${w}`);
    else parsed.positional.push(w);
  }
  return parsed;
}

/** What the CLI would refuse in this command, or 'ok'. */
function check(command: string): string {
  const p = parse(command);
  const placeholders = Object.entries(p.context).filter(([, v]) => /[<>]|\.\.\./.test(v));
  if (placeholders.length > 0) return `placeholder in ${placeholders.map(([k]) => k).join(', ')}`;
  // Nothing but the doc's flags: no sender (or anything else) filled in by the test.
  const s = makeApp({ context: { senderEmail: '', region: 'us-east-1', ...p.context }, account: ACCOUNT });
  try {
    const stacks = s.app.node.children.filter((c): c is Stack => 'templateOptions' in c).map((c) => c.stackName);
    if (p.sub === 'bootstrap') return p.positional.every((e) => /^aws:\/\/(<account>|\d{12})\/(<region>|[a-z0-9-]+)$/.test(e)) ? 'ok' : `bootstrap targets ${p.positional.join(' ')}`;
    const named = p.positional;
    if (!p.all && named.length === 0 && stacks.length > 1) return `${stacks.length} stacks: needs --all or stack names`;
    const unknown = named.filter((n) => !stacks.includes(n));
    if (unknown.length > 0) return `no stack ${unknown.join(', ')}`;
    s.app.synth();
    return 'ok';
  } finally {
    s.cleanup();
  }
}

describe('docs/deploy.md, run as the operator runs it', () => {
  const commands = cdkCommands(DOC);

  it('has the commands of the deploy sequence: bootstrap, dev, the prod mail stack then everything, teardown', () => {
    expect(commands.map((c) => parse(c).sub)).toEqual(expect.arrayContaining(['bootstrap', 'deploy', 'destroy']));
    expect(commands.some((c) => c.includes('deploy Framewright-prod-mail'))).toBe(true);
    expect(commands.filter((c) => c.includes('deploy --all -c stage=prod'))).toHaveLength(1);
  });

  it.each(cdkCommands(DOC).map((c) => [c]))('%s', (command) => {
    let answer: string;
    try {
      answer = check(command);
    } catch (err) {
      answer = (err as Error).message.split('\n')[0]!;
    }
    expect(answer).toBe('ok');
  });

  it('a wrong command fails the check (no --all, a missing prod flag, a stack that does not exist, a placeholder)', () => {
    expect(check('npx cdk deploy -c stage=dev -c senderEmail=you@example.org')).toBe('3 stacks: needs --all or stack names');
    expect(() => check('npx cdk deploy --all -c stage=prod -c senderEmail=hello@framewright.app -c cognitoEmail=ses -c accountConcurrency=1000')).toThrow(/^Prod needs -c alarmEmail/);
    expect(check('npx cdk deploy Framewright-prod-email -c stage=dev -c senderEmail=you@example.org')).toBe('no stack Framewright-prod-email');
    expect(check('npx cdk deploy --all -c stage=dev -c senderEmail=you@example.org -c accountConcurrency=<n>')).toBe('placeholder in accountConcurrency');
  });
});

describe("the doc's teardown and cost follow the templates", () => {
  const teardown = DOC.slice(DOC.indexOf('## Tear it down'));
  /** What deleting each retained kind of resource takes, as the teardown must say it. */
  const DELETES: Record<string, (props: Record<string, any>) => string> = {
    'AWS::SES::EmailIdentity': () => 'aws sesv2 delete-email-identity',
    'AWS::Cognito::UserPool': () => 'delete-user-pool',
    'AWS::DynamoDB::Table': () => 'delete-table',
    'AWS::S3::Bucket': () => 'aws s3 rb',
    'AWS::Logs::LogGroup': () => 'aws logs delete-log-group',
    'AWS::SecretsManager::Secret': (props) => `--secret-id ${props.Name}`,
  };
  // Synthesised as an operator's shell would, without the jest run's emulator endpoints (prod refuses them).
  const shell = withoutEmulatorEnv();
  const prod = stageTemplates(COST_STAGES.prod);
  const dev = stageTemplates(COST_STAGES.dev);
  shell.restore();

  it('names every resource a teardown leaves behind, and how to delete it', () => {
    const retained = [...prod, ...dev].flatMap((t) => Object.values(t)).filter((r: any) => r.DeletionPolicy === 'Retain') as { Type: string; Properties: Record<string, any> }[];
    expect(retained.length).toBeGreaterThan(0);
    const missing = retained.map((r) => (DELETES[r.Type] ? DELETES[r.Type]!(r.Properties) : `a way to delete ${r.Type}`)).filter((text) => !teardown.includes(text));
    expect([...new Set(missing)]).toEqual([]);
    expect(teardown).toContain('framewright/prod/content-credentials');
  });

  it('quotes the idle cost npm run cost computes, under the default budget\'s first alert (80%)', () => {
    const cost = { dev: idleCost(dev).total, prod: idleCost(prod).total };
    expect(DOC).toContain(`about **$${Math.round(cost.prod)} a month in prod** and **$${Math.round(cost.dev)} in dev**`);
    expect(DEFAULT_MONTHLY_BUDGET_USD * 0.8).toBeGreaterThan(cost.prod);
    expect(DOC).toContain(`The default budget ($${DEFAULT_MONTHLY_BUDGET_USD})`);
  });
});
