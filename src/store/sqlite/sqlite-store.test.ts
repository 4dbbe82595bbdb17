// The Store contract against SQLite: an in-memory database and a WAL file in a temp directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runStoreContract } from '../contract.js';
import { openSqliteStore } from './open-sqlite.js';

runStoreContract('SQLite in memory', () => openSqliteStore(':memory:'));

const dir = mkdtempSync(join(tmpdir(), 'tidepool-sqlite-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
runStoreContract('SQLite file (WAL)', () => openSqliteStore(join(dir, 'memory.db')));
