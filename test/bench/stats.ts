/** Latency statistics for the benchmarks: nearest-rank percentiles over samples in milliseconds. */
export interface LatencySummary {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** Requests per second over the phase's wall time. */
  throughput: number;
}

/** The nearest-rank percentile p (0-100] of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of no samples');
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export function summarize(samplesMs: readonly number[], wallMs: number): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((s, v) => s + v, 0) / sorted.length,
    throughput: (sorted.length / wallMs) * 1000,
  };
}

/** A plain-text table; the columns after the first (numbers) are right-aligned unless `align` is 'left'. */
export function table(headers: string[], rows: (string | number)[][], align: 'numbers-right' | 'left' = 'numbers-right'): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((v, c) => (c === 0 || align === 'left' ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const ms = (v: number) => v.toFixed(1);
