/**
 * A PostgreSQL memory indexed by the first versions (PostgreSQL's Snowball stems, no format mark) is indexed again with
 * FTS5's terms when it is opened, once, in one transaction (issue 20.3). PGlite in a data directory stands in for the
 * server: the same migrations, the same SQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { appContextOf } from '../src/app/tidepool.js';

const dir = mkdtempSync(join(tmpdir(), 'tidepool-retok-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a PostgreSQL memory indexed with Snowball stems', () => {
  it('indexes every item again with the shared terms, once', async () => {
    const url = `pglite://${join(dir, 'pg')}`;
    const warnings: string[] = [];
    const first = await openMemory({ url, space: 'a', embedder: 'none', warn: (m) => warnings.push(m) });
    await first.record({ turns: [{ role: 'user', content: 'Read the news at the Café', session: 's1' }] });
    await first.record({ turns: [{ role: 'user', content: 'Clear skies tonight', session: 's2' }] });
    expect(warnings).toEqual([]);
    // Make it look like a memory of the first versions: Snowball's stems and no mark on the table.
    const db = (appContextOf(first).store as SqlStore).db;
    await db.run("UPDATE episodes_fts f SET tsv = setweight(to_tsvector('tidepool', e.content), 'A') FROM episodes e WHERE e.id = f.id");
    await db.run('COMMENT ON TABLE episodes_fts IS NULL');
    const ids = async (m: typeof first, q: string) => (await m.recall({ query: q, layers: ['episode'] }, { sideEffects: false })).length;
    expect(await ids(first, 'ski')).toBe(0); // Snowball made `sky` of skies
    await first.close();

    const second = await openMemory({ url, space: 'a', embedder: 'none', warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(await ids(second, 'ski')).toBe(1);
    expect(await ids(second, 'new')).toBe(1);
    expect(await ids(second, 'cafe')).toBe(1);
    await second.close();

    const third = await openMemory({ url, space: 'a', embedder: 'none', warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    await third.close();
  }, 120_000);
});
