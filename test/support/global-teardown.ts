import { checkInvariants } from './invariants';
import { drainStreams } from './jobs';
import { stopStackProcess } from './start-stack';

/**
 * The money invariants over the whole table once every file is done (files that run beside others check only their
 * own users), then the stack stopped. A broken invariant fails the run. A job a finished test left running may still
 * be settling (a late webhook), and a scan is not one read: a problem counts only when a second scan, after the
 * stream functions are drained, still shows it.
 */
export default async function globalTeardown(): Promise<void> {
  if (!process.env.FW_TEST_PID) return;
  try {
    await drainStreams();
    const first = await checkInvariants();
    await new Promise((r) => setTimeout(r, first.problems.length ? 2_000 : 0));
    await drainStreams();
    const { problems, ...counts } = first.problems.length ? await checkInvariants() : first;
    const lasting = problems.filter((p) => first.problems.includes(p));
    process.stdout.write(`\nThe table at the end of the run: ${JSON.stringify(counts)}\n`);
    if (lasting.length) throw new Error(`The money invariants do not hold at the end of the run:\n${lasting.slice(0, 20).join('\n')}`);
  } finally {
    await stopStackProcess(Number(process.env.FW_TEST_PID), process.env.FW_TEST_DATA);
  }
}
