/**
 * The prompt policy's figures (`npx tsx test/bench/prompt-policy.ts`): blocked/passed per bypass family of
 * test/support/prompt-policy-cases.ts, the false positives in the ordinary corpus, and the time per prompt (the first
 * call's, then mean and 99th percentile in µs over every prompt of the table read 20 times after 5 warm-up rounds). `--policy <file>` measures
 * another build of lambdas/domain/prompt-policy.ts (an older commit's, checked out beside it) on the same table.
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BASE_PROMPTS, DISGUISES, FORBIDDEN_FAMILIES, ON_PICTURE_FAMILY, ORDINARY_PROMPTS } from '../support/prompt-policy-cases';

type Breach = (prompt: string, negative?: string, context?: { onPicture?: boolean }) => string | undefined;

async function main() {
  const at = process.argv.indexOf('--policy');
  const file = at > 0 ? resolve(process.argv[at + 1]!) : resolve(__dirname, '../../lambdas/domain/prompt-policy.ts');
  const { promptPolicyBreach } = (await import(file)) as { promptPolicyBreach: Breach };

  const rows: Array<[string, number, number]> = [];
  for (const [family, disguise] of DISGUISES) {
    const blocked = BASE_PROMPTS.filter((p) => promptPolicyBreach(disguise(p))).length;
    rows.push([family, blocked, BASE_PROMPTS.length - blocked]);
  }
  for (const [family, prompts] of FORBIDDEN_FAMILIES) {
    const blocked = prompts.filter((p) => promptPolicyBreach(p, '', { onPicture: family === ON_PICTURE_FAMILY })).length;
    rows.push([family, blocked, prompts.length - blocked]);
  }
  const falsePositives = ORDINARY_PROMPTS.filter((p) => promptPolicyBreach(p));

  const all = [...DISGUISES.flatMap(([, d]) => BASE_PROMPTS.map(d)), ...FORBIDDEN_FAMILIES.flatMap(([, ps]) => ps), ...ORDINARY_PROMPTS];
  const first = performance.now();
  promptPolicyBreach(all[0]!);
  const firstCall = (performance.now() - first) * 1000;
  for (let round = 0; round < 5; round++) for (const p of all) promptPolicyBreach(p);
  const times: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const p of all) {
      const t0 = performance.now();
      promptPolicyBreach(p);
      times.push((performance.now() - t0) * 1000);
    }
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;

  console.log(`| family | blocked | passed |\n|---|---|---|`);
  for (const [family, blocked, passed] of rows) console.log(`| ${family} | ${blocked} | ${passed} |`);
  console.log(`\nordinary prompts: ${ORDINARY_PROMPTS.length}, false positives: ${falsePositives.length}`);
  for (const p of falsePositives) console.log(`  refused: ${JSON.stringify(p)}`);
  console.log(`first call: ${firstCall.toFixed(0)} µs; time per prompt: mean ${mean.toFixed(1)} µs, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(1)} µs (${all.length} prompts x 20)`);
}

void main();
