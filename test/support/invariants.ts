/**
 * The money invariants over the whole table, read with one consistent scan (test data is small; the app never scans):
 * every account's balance is the sum of its ledger rows, its plan credits (the part of the balance a plan granted) the sum
 * of its ledger rows' plan parts, never below zero nor above a positive balance, its activeJobs is the number of its open jobs that hold a
 * place in the queue, and the open-jobs index holds exactly the jobs not yet ended. A test runs it after its
 * concurrency rounds and expects no problem: over its own users (`owners`) when other files write beside it (a page of
 * the scan may be read in the middle of their transactions), over the whole table when it runs alone (the serial group,
 * jest.config.js); and the global teardown runs it over the whole table at the end of every run.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { stackEnv } from './users';

const OPEN = new Set(['pending', 'starting', 'processing']);

export interface InvariantReport {
  accounts: number;
  ledgerRows: number;
  jobs: number;
  openJobs: number;
  /** One line per broken invariant, naming the item; empty when the table is consistent. */
  problems: string[];
}

/** A table item as DynamoDB holds it (the scan's, or the money simulation's in-memory ports written out in the table's shape). */
export type Item = Record<string, unknown>;

/** Every item of the table, one consistent scan. */
export async function scanAll(): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await dynamo().send(new ScanCommand({ TableName: stackEnv().TABLE_NAME, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** `owners`: only these users' accounts, ledgers and jobs (their writes are over when the test asks). */
export async function checkInvariants(scope: { owners?: readonly string[] } = {}): Promise<InvariantReport> {
  const owned = scope.owners && new Set(scope.owners.map((sub) => `USER#${sub}`));
  return invariantsOf((await scanAll()).filter((i) => !owned || owned.has(String(i.pk)) || (String(i.pk).startsWith('JOB#') && owned.has(`USER#${String(i.owner)}`))));
}

/** The invariants over these items (the whole table's, or a scope of it): the one rule set the scan and the money simulation share. */
export function invariantsOf(items: readonly Item[]): InvariantReport {
  const sum = new Map<string, number>();
  const planSum = new Map<string, number>();
  const active = new Map<string, number>();
  const report: InvariantReport = { accounts: 0, ledgerRows: 0, jobs: 0, openJobs: 0, problems: [] };
  for (const i of items) {
    const pk = String(i.pk);
    if (pk.startsWith('USER#') && i.type === 'ledger') {
      report.ledgerRows++;
      sum.set(pk, (sum.get(pk) ?? 0) + Number(i.delta));
      planSum.set(pk, (planSum.get(pk) ?? 0) + Number(i.plan ?? 0));
    }
    if (pk.startsWith('JOB#') && i.sk === 'JOB') {
      report.jobs++;
      const open = OPEN.has(String(i.status));
      // In the open-jobs index (a shard), or in gsi1's OPEN_JOB for a job written before that index.
      const indexed = String(i.openpk ?? '').startsWith('OPEN_JOB#') || i.gsi1pk === 'OPEN_JOB';
      if (open) report.openJobs++;
      if (open !== indexed) report.problems.push(`${pk}: status ${String(i.status)} but ${indexed ? 'in' : 'not in'} the open-jobs index`);
      if (open && i.countsActive) active.set(`USER#${String(i.owner)}`, (active.get(`USER#${String(i.owner)}`) ?? 0) + 1);
    }
  }
  const accounts = new Set<string>();
  for (const i of items) {
    if (!String(i.pk).startsWith('USER#') || i.sk !== 'ACCOUNT') continue;
    const pk = String(i.pk);
    accounts.add(pk);
    report.accounts++;
    const ledger = sum.get(pk) ?? 0;
    if (Number(i.credits) !== ledger) report.problems.push(`${pk}: balance ${String(i.credits)}, ledger sums to ${ledger}`);
    const plan = Number(i.planCredits ?? 0);
    if (plan !== (planSum.get(pk) ?? 0)) report.problems.push(`${pk}: plan credits ${plan}, ledger's plan parts sum to ${planSum.get(pk) ?? 0}`);
    if (plan < 0 || plan > Math.max(Number(i.credits), 0)) report.problems.push(`${pk}: plan credits ${plan} outside 0..${Math.max(Number(i.credits), 0)}`);
    const running = Number(i.activeJobs ?? 0);
    if (running !== (active.get(pk) ?? 0)) report.problems.push(`${pk}: activeJobs ${running}, open jobs ${active.get(pk) ?? 0}`);
  }
  for (const [pk, n] of active) if (!accounts.has(pk)) report.problems.push(`${pk}: ${n} open job(s) of an account that does not exist`);
  for (const [pk, total] of sum) if (!accounts.has(pk)) report.problems.push(`${pk}: ledger rows (sum ${total}) without an account`);
  return report;
}
