/** A database of its own for one benchmark run on a PostgreSQL server: created before, dropped after. */
import { randomBytes } from 'node:crypto';

/** Creates `tidepool_<prefix>_<random>` on the server of `url`, with its size (pg_database_size) and its drop. */
export async function createScratchDatabase(
  url: string,
  prefix = 'scale',
): Promise<{ url: string; drop: () => Promise<void>; sizeBytes: () => Promise<number> }> {
  const { default: pg } = await import('pg');
  const name = `tidepool_${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    sizeBytes: async () => Number((await admin.query<{ s: string }>('SELECT pg_database_size($1) AS s', [name])).rows[0]?.s ?? 0),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
