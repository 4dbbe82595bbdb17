// A time window's rows are searched in the runs of ids they form: one span when they were written together, a run on
// each side when history was imported between them, and one span again when they are scattered in too many pieces.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from './sql-store.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { MAX_RUNS, windowIdRuns } from './lexical-planner.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1);
const AT = { table: 'episodes', time: 'occurred_at' };

function episode(occurredAt: number): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content: 'x', session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt, createdAt: occurredAt, embedPending: false, index: { body: 'x', extra: '', raw: '' },
  };
}

describe('windowIdRuns', () => {
  let store: SqlStore;
  beforeEach(async () => {
    store = await openSqliteStore(':memory:');
  });
  afterEach(async () => {
    await store.close();
  });
  /** Inserts rows at these times, in this order; returns their ids. */
  const write = async (times: number[]) => (await store.forSpace('s').episodes.insertMany(times.map(episode))).ids;
  const runs = (o: { since?: number; until?: number }) => windowIdRuns(store.db, AT, 's', o);

  it('answers undefined without a window, null for an empty one, one span for rows written together', async () => {
    const ids = await write(Array.from({ length: 50 }, (_, i) => NOW - 50 * DAY + i * DAY));
    expect(await runs({})).toBeUndefined();
    expect(await runs({ since: NOW + DAY })).toBeNull();
    expect(await runs({ since: NOW - 10 * DAY })).toEqual([{ lo: ids[40], hi: ids[49] }]);
  });

  it('cuts a window at an import between its rows, and keeps a dense window with a few strangers in one span', async () => {
    const live = await write(Array.from({ length: 5 }, (_, i) => NOW - 10 * DAY + i * DAY));
    await write(Array.from({ length: 200 }, (_, i) => NOW - 900 * DAY + i * DAY)); // imported history
    const later = await write(Array.from({ length: 5 }, (_, i) => NOW - 5 * DAY + i * DAY));
    expect(await runs({ since: NOW - 10 * DAY, until: NOW })).toEqual([
      { lo: live[0], hi: live[4] },
      { lo: later[0], hi: later[4] },
    ]);
    // Two strangers inside a run of eight: the window still fills more than half of its span.
    const dense = await write([NOW + DAY, NOW + DAY, NOW - 999 * DAY, NOW + DAY, NOW - 999 * DAY, NOW + DAY, NOW + DAY, NOW + DAY]);
    expect(await runs({ since: NOW + DAY })).toEqual([{ lo: dense[0], hi: dense[7] }]);
  });

  it('searches up to MAX_RUNS pieces as runs, and a window in more pieces as one span', async () => {
    const pieces: number[] = [];
    const piece = async () => {
      pieces.push(...(await write([NOW + DAY])));
      await write(Array.from({ length: 20 }, () => NOW - 999 * DAY));
    };
    for (let p = 0; p < MAX_RUNS; p++) await piece();
    expect(await runs({ since: NOW + DAY })).toEqual(pieces.map((id) => ({ lo: id, hi: id })));
    await piece();
    expect(await runs({ since: NOW + DAY })).toEqual([{ lo: pieces[0], hi: pieces[MAX_RUNS] }]);
  });
});
