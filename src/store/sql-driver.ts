/** The SQL driver port that the portable store is written against; one adapter per engine. */

/** A bound parameter. Booleans are stored as 0/1 by the caller. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** Result of a statement that writes. */
export interface RunResult {
  changes: number;
}

/**
 * Executes SQL written with `?` placeholders (the Postgres adapter renumbers them). Statements issued
 * through a driver handed to `transaction`'s callback run inside that transaction.
 */
export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** Runs `fn` in one write transaction: all or nothing. Nested calls join the outer transaction. */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
