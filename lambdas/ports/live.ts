/** The push channel's ports: who is connected, and how a message reaches a connection. */

export interface LiveConnection {
  connectionId: string;
  owner: string;
  connectedAt: string;
}

export interface ConnectionStore {
  /** Stores an open connection of its owner (kept until closed, or its TTL when the close was missed). */
  add(conn: LiveConnection): Promise<void>;
  /** Forgets a connection; its owner is looked up when not given. */
  remove(connectionId: string, owner?: string): Promise<void>;
  /** The owner's open connections (and perhaps some just closed: sending to them answers 'gone'). */
  listFor(owner: string): Promise<LiveConnection[]>;
}

export interface LiveSender {
  /** Sends one message; 'gone' when the connection no longer exists. Other failures throw. */
  send(connectionId: string, data: string): Promise<'sent' | 'gone'>;
}

/** Checks a Cognito ID token; the verified user's id (sub), or undefined for any token that does not verify. */
export type IdTokenVerifier = (token: string) => Promise<string | undefined>;
