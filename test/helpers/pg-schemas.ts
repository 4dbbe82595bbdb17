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
