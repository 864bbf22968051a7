import { gcra } from '../../lambdas/domain/rate-limit';

const HOUR = 3_600_000;
const five = { limit: 5, periodMs: HOUR };

/** Runs requests at the given times through gcra, carrying the stored state along. */
function run(times: number[], allowance = five) {
  let tat: number | undefined;
  return times.map((t) => {
    const d = gcra(tat, t, allowance);
    if (d.allowed) tat = d.nextTat;
    return d.allowed ? 'ok' : `wait ${d.retryAfterMs}`;
  });
}

describe('gcra', () => {
  it('allows a burst of the limit, then refuses with the time until the next slot', () => {
    expect(run([0, 1, 2, 3, 4, 5])).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', `wait ${HOUR / 5 - 5}`]);
  });

  it('frees one slot every period / limit', () => {
    const t0 = 1_000_000;
    const burst = [t0, t0, t0, t0, t0];
    expect(run([...burst, t0 + HOUR / 5 - 1, t0 + HOUR / 5, t0 + HOUR / 5])).toEqual([
      'ok', 'ok', 'ok', 'ok', 'ok', 'wait 1', 'ok', `wait ${HOUR / 5}`,
    ]);
  });

  it('allows no double burst across an hour boundary', () => {
    const justBefore = HOUR - 1;
    const results = run([...Array(5).fill(justBefore), ...Array(5).fill(HOUR + 1)]);
    expect(results.filter((r) => r === 'ok')).toHaveLength(5);
  });

  it('is back to a full burst after a quiet period', () => {
    expect(run([0, 0, 0, 0, 0, HOUR, HOUR, HOUR, HOUR, HOUR, HOUR])).toEqual([
      ...Array(10).fill('ok'),
      `wait ${HOUR / 5}`,
    ]);
  });

  it('a refusal changes nothing', () => {
    const tat = 5 * (HOUR / 5);
    expect(gcra(tat, 0, five)).toEqual({ allowed: false, retryAfterMs: HOUR / 5 });
    expect(gcra(tat, HOUR / 5, five)).toEqual({ allowed: true, nextTat: tat + HOUR / 5 });
  });
});
