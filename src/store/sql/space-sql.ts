/** Spaces over portable SQL. */
import type { SpaceStore } from '../port.js';
import { PREPARED, type SqlDriver } from '../sql-driver.js';

/** Space store written once for every engine. */
export class SpaceSql implements SpaceStore {
  readonly #db: SqlDriver;
  constructor(db: SqlDriver) {
    this.#db = db;
  }
  async ensure(space: string, at: number): Promise<void> {
    // Run by every write transaction: prepared where the driver can.
    await this.#db.run('INSERT INTO spaces (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING', [space, at], PREPARED);
  }
  async exists(space: string): Promise<boolean> {
    return (await this.#db.get('SELECT id FROM spaces WHERE id = ?', [space])) !== undefined;
  }
  async list(): Promise<string[]> {
    return (await this.#db.all<{ id: string }>('SELECT id FROM spaces ORDER BY id')).map((r) => r.id);
  }
  async holdingItems(): Promise<string[]> {
    const rows = await this.#db.all<{ space: string }>(
      `SELECT space FROM episodes UNION SELECT space FROM narratives UNION SELECT space FROM knowledge ORDER BY 1`,
    );
    return rows.map((r) => r.space);
  }
  async delete(space: string): Promise<void> {
    await this.#db.run('DELETE FROM spaces WHERE id = ?', [space]);
  }
}
