export interface ContactMessage {
  id: string;
  email: string;
  subject: string;
  description: string;
  sourceIp: string;
  createdAt: string;
}

export interface ContactStore {
  /** Counts one message against each key's hourly allowance; false (and nothing counted) when any is used up. */
  takeAllowance(limits: Array<{ key: string; max: number }>, windowStart: number, windowSeconds: number): Promise<boolean>;
  save(message: ContactMessage): Promise<void>;
}
