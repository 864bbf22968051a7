import type { Probe } from '../ports/health';

export interface HealthReport {
  status: 'ok' | 'degraded';
  checks: Record<string, { status: 'up' | 'down'; latencyMs: number; error?: string }>;
}

/** Runs every probe in parallel, each bounded by a timeout, and reports which dependency is down. */
export async function checkHealth(probes: Record<string, Probe>, timeoutMs = 3000): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          probe(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [name, { status: 'up' as const, latencyMs: Date.now() - started }] as const;
      } catch (err) {
        const error = err instanceof Error ? err.name === 'Error' ? err.message : `${err.name}: ${err.message}` : String(err);
        return [name, { status: 'down' as const, latencyMs: Date.now() - started, error }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const checks = Object.fromEntries(entries);
  return { status: entries.every(([, c]) => c.status === 'up') ? 'ok' : 'degraded', checks };
}
