// The id-reference declaration against the real SQLite schema: a table or column the schema gains must be classified.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite/open-sqlite.js';
import { ID_TABLES, NOT_SPACE_DATA, SPACE_TABLE_REFS } from './row-refs.js';
import { SPACE_TABLES } from './sql/row-sql.js';

const dir = mkdtempSync(join(tmpdir(), 'tidepool-row-refs-'));
let tables: Map<string, string[]>;

beforeAll(async () => {
  const path = join(dir, 'memory.db');
  await (await openSqliteStore(path)).close();
  const db = new Database(path, { readonly: true });
  try {
    // `table_list` marks FTS5's own storage tables as `shadow`: they belong to the virtual table that owns them.
    const list = db.prepare('PRAGMA table_list').all() as Array<{ name: string; type: string; schema: string }>;
    tables = new Map();
    for (const t of list) {
      if (t.schema !== 'main' || t.type === 'shadow' || t.name.startsWith('sqlite_')) continue;
      const cols = db.prepare(`PRAGMA table_xinfo("${t.name}")`).all() as Array<{ name: string; hidden: number }>;
      tables.set(t.name, cols.filter((c) => c.hidden === 0).map((c) => c.name));
    }
  } finally {
    db.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('id-reference declaration (row-refs.ts)', () => {
  it('classifies every table of the schema as space data or not, never both', () => {
    const unclassified = [...tables.keys()].filter((t) => !(t in SPACE_TABLE_REFS) && !(t in NOT_SPACE_DATA));
    expect(unclassified).toEqual([]);
    expect(Object.keys(SPACE_TABLE_REFS).filter((t) => t in NOT_SPACE_DATA)).toEqual([]);
    const stale = [...Object.keys(SPACE_TABLE_REFS), ...Object.keys(NOT_SPACE_DATA)].filter((t) => !tables.has(t));
    expect(stale).toEqual([]);
  });

  it('covers exactly the tables export and restore carry', () => {
    expect(Object.keys(SPACE_TABLE_REFS).sort()).toEqual(SPACE_TABLES.map((t) => t.name).sort());
  });

  it('classifies every column of every space table, and names no column the schema lacks', () => {
    for (const [table, refs] of Object.entries(SPACE_TABLE_REFS)) {
      expect({ table, columns: Object.keys(refs).sort() }).toEqual({ table, columns: [...(tables.get(table) ?? [])].sort() });
    }
  });

  it('lists as id tables exactly those whose own id it declares, and refers only to them', () => {
    const withId = Object.entries(SPACE_TABLE_REFS)
      .filter(([, refs]) => refs.id === 'id')
      .map(([t]) => t);
    expect(withId.sort()).toEqual([...ID_TABLES].sort());
    for (const [table, refs] of Object.entries(SPACE_TABLE_REFS)) {
      for (const [col, r] of Object.entries(refs)) {
        if (typeof r === 'object' && 'ref' in r) expect({ table, col, to: (ID_TABLES as readonly string[]).includes(r.ref) }).toEqual({ table, col, to: true });
        if (typeof r === 'object' && 'layerRef' in r) expect(refs[r.layerRef]).toBe('plain');
      }
    }
  });
});
