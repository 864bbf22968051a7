import type { ConnectionStore, LiveConnection, LiveSender } from '../../../lambdas/ports/live';

/** The push channel's connections in memory. */
export class MemoryConnections implements ConnectionStore {
  readonly connections = new Map<string, LiveConnection>();

  async add(conn: LiveConnection) {
    this.connections.set(conn.connectionId, { ...conn });
  }
  async remove(connectionId: string) {
    this.connections.delete(connectionId);
  }
  async listFor(owner: string) {
    return [...this.connections.values()].filter((c) => c.owner === owner).map((c) => ({ ...c }));
  }
}

/**
 * The @connections API in memory: what each connection received, in order. A connection in `gone` answers Gone, one
 * in `failing` throws (API Gateway unreachable).
 */
export class RecordingSender implements LiveSender {
  readonly received = new Map<string, unknown[]>();
  readonly gone = new Set<string>();
  readonly failing = new Set<string>();

  async send(connectionId: string, data: string): Promise<'sent' | 'gone'> {
    if (this.failing.has(connectionId)) throw new Error('503 from @connections');
    if (this.gone.has(connectionId)) return 'gone';
    this.received.set(connectionId, [...(this.received.get(connectionId) ?? []), JSON.parse(data)]);
    return 'sent';
  }

  of(connectionId: string): unknown[] {
    return this.received.get(connectionId) ?? [];
  }
}
