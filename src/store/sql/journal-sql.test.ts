// JournalSql on both engines: workspace upserts, the idempotent day archive, journal episodes found by exact ref prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../postgres/open-postgres.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import type { NewEpisode, Store } from '../port.js';

function episode(ref: string): NewEpisode {
  return {
    kind: 'journal',
    role: null,
    speaker: null,
    content: ref,
    session: null,
    tool: null,
    ok: null,
    source: 'journal',
    ref,
    meta: { file: 'a.md' },
    durable: true,
    occurredAt: 1,
    createdAt: 1,
    embedPending: false,
    index: { body: 'x', extra: '', raw: 'x' },
  };
}

for (const [name, open] of [
  ['SQLite', () => openSqliteStore(':memory:')],
  ['PGlite', () => openPostgresStore('pglite://memory')],
] as const) {
  describe(`JournalSql on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
      await store.spaces.ensure('s', 1);
      await store.spaces.ensure('t', 1);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('registers a workspace once per space, stamps its use, and keeps the tend state', async () => {
      await store.forSpace('s').journal.registerWorkspace({ root: '/w/a', title: 'a', at: 10 });
      await store.forSpace('s').journal.registerWorkspace({ root: '/w/a', title: 'a', at: 20 });
      await store.forSpace('s').journal.setTendState('/w/a', '2026-11-01', 30);
      await store.forSpace('s').journal.setTendState('/w/b', '2026-11-02', 40);
      expect(await store.forSpace('s').journal.workspaces()).toEqual([
        { root: '/w/a', title: 'a', registeredAt: 10, lastUsedAt: 20, lastTendedDay: '2026-11-01' },
        { root: '/w/b', title: null, registeredAt: 40, lastUsedAt: 40, lastTendedDay: '2026-11-02' },
      ]);
      expect(await store.forSpace('t').journal.workspaces()).toEqual([]);
      expect(await store.forSpace('t').journal.workspace('/w/a')).toBeUndefined();
    });

    it('archives a day idempotently (the last copy wins) and keeps it through a restore', async () => {
      await store.forSpace('s').journal.archiveDay({
        root: '/w/a',
        day: '2026-01-02',
        content: 'v1',
        sha256: 'h1',
        at: 1,
      });
      await store.forSpace('s').journal.archiveDay({
        root: '/w/a',
        day: '2026-01-02',
        content: 'v2',
        sha256: 'h2',
        at: 2,
      });
      await store.forSpace('s').journal.archiveDay({
        root: '/w/a',
        day: '2026-01-01',
        content: 'old',
        sha256: 'h0',
        at: 2,
      });
      await store.forSpace('s').journal.markRestored('/w/a', '2026-01-02', 5);
      expect(await store.forSpace('s').journal.archivedDay('/w/a', '2026-01-02')).toEqual({
        root: '/w/a',
        day: '2026-01-02',
        content: 'v2',
        sha256: 'h2',
        archivedAt: 2,
        restoredAt: 5,
      });
      expect(await store.forSpace('s').journal.archivedDays('/w/a')).toEqual(['2026-01-01', '2026-01-02']);
      expect(await store.forSpace('s').journal.archivedDays('/w/b')).toEqual([]);
      expect(await store.forSpace('t').journal.archivedDay('/w/a', '2026-01-02')).toBeUndefined();
      const rows = await store.rows.dump('s', 'journal_archive')[Symbol.asyncIterator]().next();
      expect(rows.done).toBe(false);
    });

    it('finds journal episodes by exact ref prefix, wildcards and letter case included, and moves one in place', async () => {
      await store.forSpace('s').episodes.insertMany([
        episode('journal:/w/a_b:x.md#h'),
        episode('journal:/w/aXb:x.md#h'),
        episode('journal:/W/a_b:x.md#h'),
        episode('journal:/w/a_b:y.md#h'),
      ]);
      const found = await store.forSpace('s').journal.episodesByRefPrefix('journal:/w/a_b:');
      expect(found.map((e) => e.ref)).toEqual(['journal:/w/a_b:x.md#h', 'journal:/w/a_b:y.md#h']);
      expect(await store.forSpace('t').journal.episodesByRefPrefix('journal:/w/a_b:')).toEqual([]);
      await store.forSpace('s').journal.moveEpisode(found[0]!.id, { meta: { file: 'b.md' }, occurredAt: 7 });
      expect(await store.forSpace('s').episodes.get(found[0]!.id)).toMatchObject({
        meta: { file: 'b.md' },
        occurredAt: 7,
      });
    });
  });
}
