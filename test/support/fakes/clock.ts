/** A clock the test moves: every use case reads time through `now`, so deadlines and windows pass on demand. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
  set(iso: string): void;
}

export function testClock(start = '2026-01-02T03:04:05.000Z'): TestClock {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance: (ms) => void (at += ms),
    set: (iso) => void (at = Date.parse(iso)),
  };
}
