// `bench startup` runs the built CLI as whole processes: every row is measured, and with a PostgreSQL server the
// recall and hook rows on it stand beside node loading node-postgres alone; the server keeps no database of the run.
// The rows of a hook that injects check at every run that the memory came back (else the bench throws).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { renderStartupMarkdown, runStartupBench } from './run-startup-bench.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;

describe('bench startup', () => {
  it.skipIf(!base)('measures recall and the prompt hook on PostgreSQL beside SQLite, and drops its database', async () => {
    const report = await runStartupBench({ runs: 1, db: base! });
    expect(report.rows.map((r) => r.name)).toEqual([
      'node -e 0',
      "node + require('better-sqlite3') (baseline)",
      'tidepool --version',
      'tidepool recall "staging port"',
      'tidepool hook user-prompt-submit',
      'tidepool hook user-prompt-submit (injects)',
      'tidepool hook session-start',
      'tidepool hook user-prompt-submit (injects ~2 KB)',
      'tidepool hook user-prompt-submit (Chinese, injects)',
      "node + require('pg')",
      'tidepool recall "staging port" (PostgreSQL)',
      'tidepool hook user-prompt-submit (PostgreSQL)',
      'tidepool hook user-prompt-submit (PostgreSQL, injects)',
    ]);
    for (const r of report.rows) expect(r.median_ms).toBeGreaterThan(0);
    expect(renderStartupMarkdown(report)).toContain('(PostgreSQL) |');
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const left = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'tidepool\\_startup\\_%'");
      expect(left.rows).toEqual([]);
    } finally {
      await admin.end();
    }
  }, 120_000);
});
