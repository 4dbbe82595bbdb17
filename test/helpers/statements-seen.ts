/**
 * The statements a driver's `get` was asked while `run` ran, texts and parameters (the driver put back afterwards):
 * which plan a search took.
 */
import type { SqlDriver, SqlValue } from '../../src/store/sql-driver.js';

export async function statementsSeen<T>(
  db: SqlDriver,
  run: () => Promise<T>,
): Promise<{ result: T; texts: string[]; params: Array<readonly SqlValue[]> }> {
  const texts: string[] = [];
  const params: Array<readonly SqlValue[]> = [];
  const get = db.get.bind(db);
  db.get = ((sql: string, values?: readonly SqlValue[], ...rest: unknown[]) => {
    texts.push(sql);
    params.push(values ?? []);
    return (get as (...a: unknown[]) => unknown)(sql, values, ...rest);
  }) as typeof db.get;
  try {
    return { result: await run(), texts, params };
  } finally {
    db.get = get;
  }
}
