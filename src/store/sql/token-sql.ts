/** API tokens over portable SQL: hashes only, revocation by timestamp. */
import type { ApiTokenRow, TokenStore } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { num, numOrNull } from './sql-util.js';

const COLS = 'id, space, scope, label, created_at, last_used_at, revoked_at';

function row(r: Record<string, unknown>): ApiTokenRow {
  return {
    id: num(r.id), space: String(r.space), scope: String(r.scope) as ApiTokenRow['scope'], label: r.label === null ? null : String(r.label),
    createdAt: num(r.created_at), lastUsedAt: numOrNull(r.last_used_at), revokedAt: numOrNull(r.revoked_at),
  };
}

/** Token store written once for every engine. */
export class TokenSql implements TokenStore {
  readonly #db: SqlDriver;
  constructor(db: SqlDriver) {
    this.#db = db;
  }
  async insert(t: { space: string; scope: ApiTokenRow['scope']; hash: string; label: string | null; at: number }): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      'INSERT INTO api_tokens (space, scope, hash, label, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      [t.space, t.scope, t.hash, t.label, t.at],
    );
    return num(got!.id);
  }
  async byHash(hash: string): Promise<ApiTokenRow | undefined> {
    const r = await this.#db.get(`SELECT ${COLS} FROM api_tokens WHERE hash = ?`, [hash]);
    return r ? row(r) : undefined;
  }
  async list(space?: string): Promise<ApiTokenRow[]> {
    const rows = space === undefined
      ? await this.#db.all(`SELECT ${COLS} FROM api_tokens ORDER BY id DESC`)
      : await this.#db.all(`SELECT ${COLS} FROM api_tokens WHERE space = ? ORDER BY id DESC`, [space]);
    return rows.map(row);
  }
  async revoke(id: number, at: number): Promise<boolean> {
    const r = await this.#db.run('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]);
    return r.changes > 0;
  }
  async touch(id: number, at: number): Promise<void> {
    await this.#db.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', [at, id]);
  }
  async activeCount(): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM api_tokens WHERE revoked_at IS NULL');
    return num(r?.n ?? 0);
  }
}
