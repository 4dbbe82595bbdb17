// `bench retrieval --db`: Tidepool on a PostgreSQL server (TIDEPOOL_TEST_PG_URL) beside the SQLite file, on the tiny
// English and Chinese conversations: the same turns found in the same order, and each conversation's database gone
// after it.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseLocomo } from './locomo.js';
import { TidepoolRetrievalSystem } from './tidepool-retrieval-system.js';
import { tinyLocomo } from './tiny-locomo.js';

const url = process.env.TIDEPOOL_TEST_PG_URL;

async function scratchDatabases(): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'tidepool\\_retrieval\\_%'")).rows.map((r) => r.datname);
  } finally {
    await c.end();
  }
}

describe.skipIf(!url)('TidepoolRetrievalSystem on PostgreSQL', () => {
  it('finds what the SQLite file finds, in the same order, and drops each conversation’s database', async () => {
    const data = parseLocomo(tinyLocomo());
    const before = await scratchDatabases();
    const sqlite = new TidepoolRetrievalSystem();
    const postgres = new TidepoolRetrievalSystem({ postgres: url! });
    expect(postgres.mode).toBe('lexical-postgres');
    let found = 0;
    try {
      for (const conv of data.conversations) {
        await sqlite.load(conv);
        await postgres.load(conv);
        expect((await scratchDatabases()).length).toBe(before.length + 1);
        for (const q of data.questions.filter((x) => x.convId === conv.id)) {
          const want = await sqlite.search(q.question, 25);
          expect(await postgres.search(q.question, 25)).toEqual(want);
          found += want.length;
        }
      }
    } finally {
      await sqlite.close();
      await postgres.close();
    }
    // The questions find turns on both engines (an empty answer on both would prove nothing).
    expect(found).toBeGreaterThan(data.questions.length);
    expect(await scratchDatabases()).toEqual(before);
  });
});
