import type { ConnectionStore } from '../ports/live';

export interface CloseLiveConnectionDeps {
  connections: Pick<ConnectionStore, 'remove'>;
}

/** $disconnect: the connection is forgotten (API Gateway may not deliver it: the fan-out also drops gone ones, and a TTL the rest). */
export async function closeLiveConnection(deps: CloseLiveConnectionDeps, connectionId: string): Promise<void> {
  if (connectionId) await deps.connections.remove(connectionId);
}
