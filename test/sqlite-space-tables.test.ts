/**
 * A SQLite file of the first layout (schema v3: one word and one trigram table per layer, shared by every space) is
 * moved into each space's own tables when it is opened, all at once or not at all; afterwards a space ranks by its
 * own statistics, exactly as it would alone in a file.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodeIndexText } from '../src/app/index-text.js';
import { retokenizeIfOutdated } from '../src/app/export-space.js';
import type { Store } from '../src/store/port.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite.js';
import { SHARED_FTS_TABLES } from '../src/store/sqlite/sqlite-search.js';
import { newEpisodeRow } from './helpers/store-rows.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-space-tables-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 11, 1);
const A_TEXTS = ['the heron waits by the reed bed', 'a heron and a heron again', 'reed and water only'];
const B_TEXTS = Array.from({ length: 30 }, (_, i) => `heron ${i} heron heron`);
const row = (content: string, i: number) => newEpisodeRow(content, T0 + i, { session: null, index: episodeIndexText(content, null) });
const LEX = { limit: 10 };

/** A file holding `spaces`' episodes, written by the current store. */
async function fileWith(name: string, spaces: Record<string, readonly string[]>): Promise<string> {
  const path = join(dir, name);
  const store = await openSqliteStore(path);
  for (const [space, texts] of Object.entries(spaces)) {
    await store.spaces.ensure(space, T0);
    await store.transaction((tx) => tx.forSpace(space).episodes.insertMany(texts.map(row)));
  }
  await store.close();
  return path;
}

/** Rewinds a file to the first layout: the spaces' tables dropped and their rows in the shared tables again. */
function rewind(path: string): void {
  const db = new Database(path);
  try {
    for (const { n } of db.prepare("SELECT n FROM search_tables").all() as Array<{ n: number }>) {
      for (const l of ['episodes', 'narratives', 'knowledge']) {
        db.exec(`DROP TABLE IF EXISTS ${l}_fts_${n}; DROP TABLE IF EXISTS ${l}_tri_${n};`);
      }
    }
    db.exec('DELETE FROM search_tables');
    const put = db.prepare('INSERT INTO episodes_fts (rowid, body, speaker, ctx) VALUES (?, ?, ?, ?)');
    const tri = db.prepare('INSERT INTO episodes_tri (rowid, body) VALUES (?, ?)');
    for (const e of db.prepare('SELECT id, content FROM episodes').all() as Array<{ id: number; content: string }>) {
      const t = episodeIndexText(e.content, null);
      put.run(e.id, t.body, t.extra, t.ctx ?? '');
      tri.run(e.id, t.raw);
    }
  } finally {
    db.close();
  }
}

/** Removes `space` from the registry, as a file written through the store API without `spaces.ensure` has it. */
function unregister(path: string, space: string): void {
  const db = new Database(path);
  try {
    db.prepare('DELETE FROM spaces WHERE id = ?').run(space);
  } finally {
    db.close();
  }
}

const sharedRows = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return Object.values(SHARED_FTS_TABLES).flat().map((t) => (db.prepare(`SELECT count(*) AS c FROM ${t}`).get() as { c: number }).c);
  } finally {
    db.close();
  }
};

describe('SQLite search tables per space', () => {
  it("moves a shared index into the spaces' own tables on open; a space then ranks as it would alone", async () => {
    const alone = await openSqliteStore(await fileWith('alone.db', { a: A_TEXTS }));
    const expected = await alone.forSpace('a').search.lexical('episode', ['heron', 'reed'], LEX);
    await alone.close();
    expect(expected).toHaveLength(3);

    const path = await fileWith('old.db', { a: A_TEXTS, b: B_TEXTS, unlisted: A_TEXTS });
    unregister(path, 'unlisted');
    rewind(path);
    expect(sharedRows(path)[0]).toBe(36);
    const store = await openSqliteStore(path);
    try {
      expect(await store.search.termsOutdated?.()).toBe(true);
      expect(await retokenizeIfOutdated(store, 2, true)).toBe(true);
      expect(await store.search.termsOutdated?.()).toBe(false);
      // Same ids and scores as in a file that never held B: N, n(term) and the mean length are A's.
      expect(await store.forSpace('a').search.lexical('episode', ['heron', 'reed'], LEX)).toEqual(expected);
      expect(await store.forSpace('b').search.lexical('episode', ['heron'], { limit: 100 })).toHaveLength(30);
      expect(await store.forSpace('a').search.substring('episode', 'heron', LEX)).toHaveLength(2);
      // A space written without being registered (a library caller) is moved too: nothing it stored is lost.
      expect(await store.forSpace('unlisted').search.lexical('episode', ['reed'], LEX)).toHaveLength(2);
    } finally {
      await store.close();
    }
    expect(sharedRows(path).every((c) => c === 0)).toBe(true);
  });

  it('leaves the shared index as it was when the move fails part-way', async () => {
    const path = await fileWith('fails.db', { a: A_TEXTS, b: B_TEXTS });
    rewind(path);
    const store = await openSqliteStore(path);
    try {
      // The second space's rows cannot be read: the first space's tables, already filled, must go too.
      const failing = new Proxy(store, {
        get(target, key) {
          if (key !== 'transaction') return Reflect.get(target, key, target) as unknown;
          return (fn: (tx: Store) => Promise<unknown>) =>
            target.transaction((tx) =>
              fn(new Proxy(tx, {
                get(t, k) {
                  if (k !== 'forSpace') return Reflect.get(t, k, t) as unknown;
                  return (space: string) => {
                    if (space === 'b') throw new Error('read failed');
                    return t.forSpace(space);
                  };
                },
              })),
            );
        },
      });
      await expect(retokenizeIfOutdated(failing, 2, true)).rejects.toThrow('read failed');
      expect(await store.search.termsOutdated?.()).toBe(true);
      expect(await store.forSpace('a').search.lexical('episode', ['heron'], LEX)).toEqual([]);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS c FROM search_tables').get()).toEqual({ c: 0 });
      const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
      expect(names.filter((n) => /^episodes_(fts|tri)_\d+/.test(n))).toEqual([]);
    } finally {
      db.close();
    }
    expect(sharedRows(path)[0]).toBe(33);
  });

  it('forgets tables created by a write that rolled back, and creates them again on the next write', async () => {
    const store = await openSqliteStore(await fileWith('rollback.db', { a: A_TEXTS }));
    try {
      const failed = store.transaction(async (tx) => {
        await tx.forSpace('c').episodes.insertMany([row('heron in a new space', 1)]);
        throw new Error('cut off');
      });
      await expect(failed).rejects.toThrow('cut off');
      expect(await store.db.all("SELECT n FROM search_tables WHERE space = 'c'")).toEqual([]);
      expect(await store.forSpace('c').search.lexical('episode', ['heron'], LEX)).toEqual([]);
      await store.transaction((tx) => tx.forSpace('c').episodes.insertMany([row('heron in a new space', 2)]));
      expect(await store.forSpace('c').search.lexical('episode', ['heron'], LEX)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("drops a space's tables when the space is erased, and leaves the other's", async () => {
    const store = await openSqliteStore(await fileWith('erase.db', { a: A_TEXTS, b: B_TEXTS }));
    try {
      await store.transaction((tx) => tx.rows.eraseSpace('b'));
      expect(await store.forSpace('b').search.lexical('episode', ['heron'], LEX)).toEqual([]);
      expect(await store.forSpace('a').search.lexical('episode', ['heron'], LEX)).toHaveLength(2);
      const names = (await store.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name);
      expect(names.filter((n) => /^episodes_(fts|tri)_\d+$/.test(n))).toHaveLength(2);
      // A new write to the erased space starts its tables again.
      await store.transaction((tx) => tx.forSpace('b').episodes.insertMany([row('heron once more', 99)]));
      expect(await store.forSpace('b').search.lexical('episode', ['heron'], LEX)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
