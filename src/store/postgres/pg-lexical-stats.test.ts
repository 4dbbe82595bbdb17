// PostgreSQL's lexical statistics (pg-lexical-stats.ts) are kept on write and must always equal what a count of the
// word index gives: per space, its rows, their tokens and the rows holding each lexeme, through inserts in many
// transactions (deltas folded after commits), rewrites, forgetting, a re-index of ids already indexed and a space
// erased; so must the rows each one-character prefix query matches (a Chinese character's search). A word only
// forgotten rows held leaves no trace in them; the migration's backfill rebuilds the same figures.
import { afterAll, describe, expect, it } from 'vitest';
import { pgSchemas } from '../../../test/helpers/pg-schemas.js';
import { statementsSeen } from '../../../test/helpers/statements-seen.js';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { PgDriver, type PgFamilyDriver } from './pg-driver.js';
import { COMPACT_AT, compactLexicalStats, lexicalStatsBackfill, readLexicalStats } from './pg-lexical-stats.js';
import { prefixKey } from './pg-lexemes.js';
import { quoteLexeme } from './pg-lexemes.js';
import { openPostgresStore } from './open-postgres.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;
const fresh = base ? pgSchemas(base) : () => '';
const WORDS = ['harbour', 'kayak', 'storm', 'net', 'boat', 'tide', 'rope', 'gull', '部署', '部门', '备份', 'running', 'runs'];

function episode(body: string, speaker: string, ctx: string): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker, content: body, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: 1, createdAt: 1, embedPending: false, index: { body, extra: speaker, ctx, raw: body },
  };
}

/** Every space's figures as the word index counts them, and as the statistics give them. */
async function compare(store: SqlStore): Promise<{ counted: unknown; kept: unknown }> {
  if (store.db instanceof PgDriver) await store.db.settled();
  const counted: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  const spaces = await store.db.all<{ space: string }>('SELECT DISTINCT space FROM episodes ORDER BY space');
  for (const { space } of spaces) {
    const totals = await store.db.get<{ rows: unknown; tokens: unknown }>(
      'SELECT count(*) AS rows, sum(f.len) AS tokens FROM episodes_fts f JOIN episodes x ON x.id = f.id WHERE x.space = ?',
      [space],
    );
    const terms = await store.db.all<{ lexeme: string; n: unknown }>(
      `SELECT u.lexeme AS lexeme, count(*) AS n FROM episodes_fts f JOIN episodes x ON x.id = f.id, unnest(f.tsv) u
       WHERE x.space = ? GROUP BY u.lexeme ORDER BY u.lexeme`,
      [space],
    );
    // The rows a one-character prefix query matches (how a Chinese character is searched), counted by that query.
    const firsts = [...new Set(terms.map((t) => [...t.lexeme][0]!))].sort();
    const prefixes: Array<[string, number]> = [];
    for (const c of firsts) {
      const r = await store.db.get<{ n: unknown }>(
        `SELECT count(*) AS n FROM episodes_fts f JOIN episodes x ON x.id = f.id WHERE x.space = ? AND f.tsv @@ ?::tsquery`,
        [space, `${quoteLexeme(c)}:*`],
      );
      prefixes.push([c, Number(r?.n)]);
    }
    counted[space] = {
      rows: Number(totals?.rows), tokens: Number(totals?.tokens), terms: terms.map((t) => [t.lexeme, Number(t.n)]), prefixes,
    };
    const s = await readLexicalStats(store.db, 'episode', space, [...terms.map((t) => t.lexeme), ...firsts.map(prefixKey)]);
    kept[space] = {
      rows: s.rows, tokens: s.tokens, terms: terms.map((t, i) => [t.lexeme, s.hits[i]]),
      prefixes: firsts.map((c, i) => [c, s.hits[terms.length + i]]),
    };
  }
  return { counted, kept };
}

async function exercise(url: string): Promise<void> {
  const store = await openPostgresStore(url);
  try {
    const rng = createRng(11);
    const pick = (n: number) => Array.from({ length: n }, () => (rng.chance(0.6) ? WORDS[rng.between(0, WORDS.length - 1)]! : `w${rng.between(1, 60)}`));
    const ids: Record<string, number[]> = { a: [], b: [] };
    // More transactions than COMPACT_AT, so deltas are folded after some commits and read unfolded after others.
    for (let t = 0; t < COMPACT_AT * 2 + 3; t++) {
      const space = t % 3 === 0 ? 'b' : 'a';
      const rows = Array.from({ length: rng.between(1, 30) }, () =>
        episode(pick(rng.between(1, 10)).join(' '), rng.chance(0.5) ? 'Mia' : '', pick(rng.between(0, 4)).join(' ')),
      );
      ids[space]!.push(...(await store.transaction((tx) => tx.forSpace(space).episodes.insertMany(rows))).ids);
    }
    let { counted, kept } = await compare(store);
    expect(kept).toEqual(counted);

    // Batches of several parts (the insert's parts of 250 rows), whole parts and a last part whose rows are all skipped
    // (their refs are stored already), and a batch that inserts nothing: one delta for each batch's indexed rows.
    const refd = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ ...episode(pick(3).join(' '), '', ''), ref: `r${from + i}` }));
    await store.transaction((tx) => tx.forSpace('a').episodes.insertMany(refd(500, 0)));
    const again = await store.transaction((tx) => tx.forSpace('a').episodes.insertMany([...refd(250, 1000), ...refd(20, 0)]));
    expect(again).toMatchObject({ skipped: 20 });
    expect(again.ids).toHaveLength(250);
    const none = await store.transaction((tx) => tx.forSpace('a').episodes.insertMany(refd(3, 0)));
    expect(none).toEqual({ ids: [], skipped: 3 });
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);

    // A word held by one row only, which is then forgotten, leaves the statistics with it.
    const {
      ids: [secret],
    } = await store.transaction((tx) => tx.forSpace('a').episodes.insertMany([episode('zanzibarine kayak', '', '')]));
    expect((await readLexicalStats(store.db, 'episode', 'a', ['zanzibarin'])).hits).toEqual([1]);
    // Any number of words is one statement text (planned once per connection), the counts in the words' order, a word
    // asked twice counted twice, an unknown word 0, quotes and Chinese as they are.
    const { result: [one, many], texts } = await statementsSeen(store.db, async () => [
      await readLexicalStats(store.db, 'episode', 'a', ['kayak']),
      await readLexicalStats(store.db, 'episode', 'a', ['storm', "o'hare", 'kayak', 'no-such-word', '部署', prefixKey('部'), 'kayak']),
    ]);
    expect(new Set(texts).size).toBe(1);
    expect(many!.hits).toHaveLength(7);
    expect(many!.hits[2]).toBe(one!.hits[0]);
    expect(many!.hits[6]).toBe(one!.hits[0]);
    expect(many!.hits[3]).toBe(0);
    expect(one!.hits[0]).toBeGreaterThan(0);
    expect((await readLexicalStats(store.db, 'episode', 'a', [])).hits).toEqual([]);
    await store.transaction(async (tx) => {
      await tx.forSpace('a').episodes.delete([secret!, ...ids.a!.slice(0, 7)]);
      await tx.forSpace('a').episodes.rewrite(ids.a![9]!, 'storm storm gull', episode('storm storm gull', '', '').index);
    });
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);
    const trace = await store.db.get<{ n: unknown }>(
      `SELECT (SELECT count(*) FROM lexical_terms WHERE term LIKE 'zanzibar%')
            + (SELECT count(*) FROM lexical_deltas WHERE terms::text LIKE '%zanzibar%') AS n`,
    );
    expect(Number(trace?.n)).toBe(0);

    // Indexing ids already indexed (without unindexing them first) replaces their figures rather than adding to them.
    await compactLexicalStats(store.db, 'episode', { all: true });
    await store.transaction((tx) =>
      tx.search.index('episode', ids.b!.slice(0, 5).map((id) => ({ id, body: 'tide tide rope', extra: '', raw: 'tide tide rope' })), 'b'),
    );
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);
    // A part mixing both: ids already indexed and one that is not (unindexed before). Only the former are replaced;
    // the new one is counted once (deleting it with the others would subtract a row never counted).
    await store.transaction((tx) => tx.search.unindex('episode', [ids.b![8]!], 'b'));
    await store.transaction((tx) =>
      tx.search.index('episode', ids.b!.slice(5, 9).map((id) => ({ id, body: 'kelp kelp tide', extra: '', raw: 'kelp kelp tide' })), 'b'),
    );
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);
    // Folded together, those deltas add no row but change the tokens: the total keeps the change.
    await compactLexicalStats(store.db, 'episode', { all: true });
    expect(Number((await store.db.get<{ n: unknown }>('SELECT count(*) AS n FROM lexical_deltas'))?.n)).toBe(0);
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);

    // The backfill (the migration's) rebuilds the same figures from the index alone.
    await (store.db as PgFamilyDriver).transaction((tx) =>
      tx.exec(`DELETE FROM lexical_deltas; DELETE FROM lexical_rows; DELETE FROM lexical_terms; ${lexicalStatsBackfill()}`),
    );
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);

    // Erasing a space leaves nothing of it; the other space's figures stay exact.
    await store.transaction((tx) => tx.rows.eraseSpace('b'));
    const left = await store.db.get<{ n: unknown }>(
      `SELECT (SELECT count(*) FROM lexical_rows WHERE space = 'b') + (SELECT count(*) FROM lexical_terms WHERE space = 'b')
            + (SELECT count(*) FROM lexical_deltas WHERE space = 'b') AS n`,
    );
    expect(Number(left?.n)).toBe(0);
    ({ counted, kept } = await compare(store));
    expect(kept).toEqual(counted);
    expect(Object.keys(counted as object)).toEqual(['a']);
  } finally {
    await store.close();
  }
}

const stores: SqlStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

describe('PostgreSQL lexical statistics', () => {
  it('equal the word index counts through writes, rewrites, forgetting and erasure (PGlite)', async () => {
    await exercise('pglite://memory');
  }, 120_000);

  it.skipIf(!base)('equal the word index counts on a PostgreSQL server, deltas folded after commits', async () => {
    await exercise(fresh('lexstats'));
  }, 120_000);

  it.skipIf(!base)('are completed with the prefix counts when a database written before them is opened (v5 migration)', async () => {
    const url = fresh('lexstatsv4');
    let store = await openPostgresStore(url);
    try {
      const rows = ['部署 备份 harbour', '部门 kayak', '部署 部门 storm', 'tide rope'].map((b) => episode(b, 'Mia', ''));
      await store.transaction((tx) => tx.forSpace('a').episodes.insertMany(rows));
      await (store.db as PgDriver).settled();
      await compactLexicalStats(store.db, 'episode', { all: true });
      // As a v4 database holds them: lexemes counted, no prefix.
      await store.db.run(`DELETE FROM lexical_terms WHERE term LIKE '%*'`);
      await store.db.run('DELETE FROM schema_migrations WHERE version >= 5');
      expect((await readLexicalStats(store.db, 'episode', 'a', [prefixKey('部')])).hits).toEqual([0]);
      await store.close();
      store = await openPostgresStore(url);
      expect((await readLexicalStats(store.db, 'episode', 'a', [prefixKey('部')])).hits).toEqual([3]);
      const { counted, kept } = await compare(store);
      expect(kept).toEqual(counted);
    } finally {
      await store.close();
    }
  }, 120_000);

  it.skipIf(!base)('stay exact with two servers writing and forgetting at once', async () => {
    const url = fresh('lexstats2');
    const [one, two] = [await openPostgresStore(url), await openPostgresStore(url)];
    try {
      const rng = createRng(3);
      const pick = () => Array.from({ length: rng.between(1, 8) }, () => WORDS[rng.between(0, WORDS.length - 1)]!).join(' ');
      // Each server: 24 writes of a few turns into one of two spaces, every third followed by forgetting some of them.
      const work = (store: SqlStore, seed: number) =>
        Promise.all(
          Array.from({ length: 24 }, async (_, i) => {
            const space = (i + seed) % 2 === 0 ? 'a' : 'b';
            const rows = Array.from({ length: 1 + ((i * 7 + seed) % 20) }, () => episode(pick(), '', pick()));
            const { ids } = await store.transaction((tx) => tx.forSpace(space).episodes.insertMany(rows));
            if (i % 3 === 0) await store.transaction((tx) => tx.forSpace(space).episodes.delete(ids.slice(0, 3)));
          }),
        );
      await Promise.all([work(one, 0), work(two, 1)]);
      await (two.db as PgDriver).settled();
      const { counted, kept } = await compare(one);
      expect(kept).toEqual(counted);
      // Folding everything left gives the same figures.
      await compactLexicalStats(one.db, 'episode', { all: true });
      expect((await compare(one)).kept).toEqual(counted);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 120_000);
});
