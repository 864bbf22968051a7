import { EDGE_RATE_RULES, EDGE_WINDOW_SECONDS } from '../../contract/edge-limits';
import { edgeRateLimiter } from '../../local/gateway/edge';

describe("the single origin's edge rate rules (WAF's, locally)", () => {
  it.each([
    ['/api/send-contact', 30],
    ['/api/generate-image', 100],
    ['/api/generate-video', 100],
    ['/api/uploads', 100],
  ])('lets %s through %i times per IP in 5 minutes, then refuses, and starts again with the next window', (path, limit) => {
    let t = 0;
    const limited = edgeRateLimiter(() => t);
    const answers = Array.from({ length: limit + 2 }, () => limited('127.9.9.9', path));
    expect(answers.filter((x) => !x)).toHaveLength(limit);
    expect(answers.slice(limit)).toEqual([true, true]);
    // Another IP has its own count; the same IP after the window starts afresh.
    expect(limited('127.9.9.10', path)).toBe(false);
    t += EDGE_WINDOW_SECONDS * 1000;
    expect(limited('127.9.9.9', path)).toBe(false);
  });

  it('leaves other paths alone', () => {
    const limited = edgeRateLimiter(() => 0);
    for (let i = 0; i < 500; i++) expect(limited('127.9.9.9', '/api/check-status/abc')).toBe(false);
    expect(EDGE_RATE_RULES.map((r) => r.name)).toEqual(['contact-per-ip', 'generate-per-ip', 'uploads-per-ip']);
  });
});
