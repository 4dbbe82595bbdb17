/** API tokens (cross-space: a token names its own space). */

/** An API token as stored: only the SHA-256 of the secret is kept. */
export interface ApiTokenRow {
  id: number;
  space: string;
  scope: 'read' | 'write' | 'admin';
  label: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** API tokens over `api_tokens` (global: a token names its own space). */
export interface TokenStore {
  insert(row: {
    space: string;
    scope: ApiTokenRow['scope'];
    hash: string;
    label: string | null;
    at: number;
  }): Promise<number>;
  /** The token with this hash, revoked or not. */
  byHash(hash: string): Promise<ApiTokenRow | undefined>;
  /** Tokens, newest first; of one space when given. */
  list(space?: string): Promise<ApiTokenRow[]>;
  /** Marks a token revoked; false when no live token has this id. */
  revoke(id: number, at: number): Promise<boolean>;
  touch(id: number, at: number): Promise<void>;
  /** Live (not revoked) tokens in the whole database. */
  activeCount(): Promise<number>;
}
