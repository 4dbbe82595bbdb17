/** Reads a Tideline SQLite database read-only, the one I/O step of a Tideline import; the decoding is pure script. */
import Database from 'better-sqlite3';
import {
  decodeTidelineDb,
  TIDELINE_TABLES,
  type ReadTidelineOptions,
  type TidelineDb,
  type TidelineRows,
  type TidelineTable,
} from '../script/import-formats/decode-tideline-db.js';

/** Opens `path` read-only and returns every row of the seven tables Tidepool imports, decoded. */
export function readTidelineDb(path: string, opts: ReadTidelineOptions = {}): TidelineDb {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables: TidelineRows = {};
    for (const [table, order] of Object.entries(TIDELINE_TABLES) as Array<[TidelineTable, string]>) {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      if (exists) tables[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all() as Array<Record<string, unknown>>;
    }
    return decodeTidelineDb(tables, opts);
  } finally {
    db.close();
  }
}
