import { z } from 'zod';

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  checks: z.record(z.string(), z.object({ status: z.enum(['up', 'down']), latencyMs: z.number(), error: z.string().optional() })),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

export const MeResponse = z.object({
  sub: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  createdAt: z.string(),
  credits: z.number().int().nonnegative(),
});
export type MeResponse = z.infer<typeof MeResponse>;
