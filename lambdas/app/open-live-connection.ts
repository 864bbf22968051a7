import { LIVE_PROTOCOL } from '../../contract/live';
import { Unauthorized } from '../domain/errors';
import type { ConnectionStore, IdTokenVerifier } from '../ports/live';

export interface OpenLiveConnectionDeps {
  connections: Pick<ConnectionStore, 'add'>;
  verify: IdTokenVerifier;
  /** Whether the sub's account was deleted (its tombstone): its tokens stay valid until they expire. */
  isDeleted: (sub: string) => Promise<boolean>;
  now: () => Date;
}

/**
 * $connect: the browser offers `Sec-WebSocket-Protocol: framewright.v1, <Cognito ID token>` (it cannot send an
 * Authorization header on a WebSocket). The token is verified like the HTTP API's JWT authorizer does it; the
 * connection is stored for its owner, and the protocol to answer with is returned. Anything else, or the token of a
 * deleted account (as on every signed-in HTTP route): Unauthorized.
 */
export async function openLiveConnection(deps: OpenLiveConnectionDeps, connectionId: string, offeredProtocols: string | undefined): Promise<{ owner: string; protocol: string }> {
  const offered = (offeredProtocols ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  const token = offered.find((p) => p !== LIVE_PROTOCOL);
  if (!offered.includes(LIVE_PROTOCOL) || !token || !connectionId) throw new Unauthorized();
  const owner = await deps.verify(token);
  if (!owner || (await deps.isDeleted(owner))) throw new Unauthorized();
  await deps.connections.add({ connectionId, owner, connectedAt: deps.now().toISOString() });
  return { owner, protocol: LIVE_PROTOCOL };
}
