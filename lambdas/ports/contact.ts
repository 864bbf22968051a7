import type { Allowance, AllowanceResult } from '../domain/rate-limit';

export interface ContactMessage {
  id: string;
  email: string;
  subject: string;
  description: string;
  sourceIp: string;
  createdAt: string;
}

export interface ContactStore {
  /**
   * Counts one message against every allowance at once: all are charged, or (when any is used up) none,
   * with the time until the last of the refusing ones allows another.
   */
  takeAllowance(allowances: Allowance[], now: number): Promise<AllowanceResult>;
  save(message: ContactMessage): Promise<void>;
}
