/** Fresh PostgreSQL schemas on TIDEPOOL_TEST_PG_URL for one test file, so runs never see each other's tables. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';

/** Call in a test file's scope: the returned function gives a URL on a new schema; all are dropped after the file. */
export function pgSchemas(base: string): (purpose: string) => string {
  const made: string[] = [];
  afterAll(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      for (const s of made) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    } finally {
      await client.end();
    }
  });
  return (purpose) => {
    const schema = `tp_test_${purpose}_${process.pid}_${randomBytes(3).toString('hex')}`;
    made.push(schema);
    const u = new URL(base);
    u.searchParams.set('schema', schema);
    return u.href;
  };
}

/**
 * Call in a test file's scope: the PostgreSQL engines a test runs on, for `describe.each`: PGlite always, and a fresh
 * schema on TIDEPOOL_TEST_PG_URL when it is set. Each entry's function opens a new memory's URL.
 */
export function pgEngines(purpose: string): Array<[string, () => string]> {
  const base = process.env.TIDEPOOL_TEST_PG_URL;
  const fresh = base ? pgSchemas(base) : undefined;
  return [['PGlite', () => 'pglite://memory'], ...(fresh ? [['a PostgreSQL server', () => fresh(purpose)] as [string, () => string]] : [])];
}
