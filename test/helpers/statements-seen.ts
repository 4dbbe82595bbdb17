/** The statement texts a driver's `get` was asked while `run` ran (the driver put back afterwards): which plan a search took. */
import type { SqlDriver } from '../../src/store/sql-driver.js';

export async function statementsSeen<T>(db: SqlDriver, run: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
  const texts: string[] = [];
  const get = db.get.bind(db);
  db.get = ((sql: string, ...rest: unknown[]) => {
    texts.push(sql);
    return (get as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof db.get;
  try {
    return { result: await run(), texts };
  } finally {
    db.get = get;
  }
}
