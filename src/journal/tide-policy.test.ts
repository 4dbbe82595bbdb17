import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './journal-date.js';
import { DEFAULT_TIDE_CONFIG, type TideConfig } from './tide-config.js';
import { planTide, type DayFile, type DayLocation } from './tide-policy.js';
import type { UsageBook, UsageEntry } from './usage-book.js';

const TODAY = '2026-11-05';
const ago = (n: number) => addDays(TODAY, -n);
const book = (files: Record<string, Partial<UsageEntry>> = {}): UsageBook => ({
  version: 1,
  files: Object.fromEntries(
    Object.entries(files).map(([k, v]) => [k, { hits: 0, since: '2026-01-01', total: v.hits ?? 0, ...v }]),
  ),
});
const plan = (files: DayFile[], usage = book(), cfg: Partial<TideConfig> = {}) =>
  planTide(files, usage, { ...DEFAULT_TIDE_CONFIG, ...cfg }, TODAY);
const where = (p: ReturnType<typeof plan>, date: string) =>
  p.placement.find((x) => x.date === date)?.location;

describe('planTide: hotKeepDays (SEEDS §2.6 row 1, 3)', () => {
  it('keeps a file exactly hotKeepDays old hot and sinks an unused one a day older', () => {
    const p = plan([
      { date: ago(7), location: 'hot' },
      { date: ago(8), location: 'hot' },
    ]);
    expect(where(p, ago(7))).toBe('hot');
    expect(p.moves).toEqual([{ date: ago(8), from: 'hot', to: 'cold', reason: 'unused' }]);
  });

  it('keeps today and future-dated files hot', () => {
    const p = plan([
      { date: TODAY, location: 'hot' },
      { date: addDays(TODAY, 3), location: 'hot' },
    ]);
    expect(p.moves).toEqual([]);
  });

  it('brings a recent file found in cold back to hot', () => {
    const p = plan([{ date: ago(2), location: 'cold' }]);
    expect(p.moves).toEqual([{ date: ago(2), from: 'cold', to: 'hot', reason: 'recent' }]);
  });
});

describe('planTide: promoteHits (row 2)', () => {
  it('keeps an older file looked up on promoteHits days hot and pins it', () => {
    const p = plan(
      [{ date: ago(8), location: 'hot' }],
      book({ [`${ago(8)}.md`]: { hits: 3, lastHit: ago(1) } }),
    );
    expect(p.moves).toEqual([]);
    expect(p.pinned).toEqual([{ date: ago(8), reason: 'hot_hits', hits: 3 }]);
    expect(p.usage.files[`${ago(8)}.md`]?.pinned).toBe(TODAY);
  });

  it('sinks an older file looked up on one day fewer and restarts its count for the cold tier', () => {
    const p = plan(
      [{ date: ago(8), location: 'hot' }],
      book({ [`${ago(8)}.md`]: { hits: 2, total: 2, lastHit: ago(1) } }),
    );
    expect(p.moves).toEqual([{ date: ago(8), from: 'hot', to: 'cold', reason: 'unused' }]);
    expect(p.usage.files[`${ago(8)}.md`]).toMatchObject({ hits: 0, since: TODAY, total: 2 });
  });
});

describe('planTide: coldPromoteHits (row 4)', () => {
  it('floats a cold file looked up on coldPromoteHits days back to hot, pinned', () => {
    const p = plan(
      [{ date: ago(40), location: 'cold' }],
      book({ [`${ago(40)}.md`]: { hits: 5, lastHit: TODAY } }),
    );
    expect(p.moves).toEqual([{ date: ago(40), from: 'cold', to: 'hot', reason: 'promoted' }]);
    expect(p.pinned).toEqual([{ date: ago(40), reason: 'cold_hits', hits: 5 }]);
    expect(p.usage.files[`${ago(40)}.md`]).toMatchObject({ hits: 0, pinned: TODAY });
  });

  it('leaves a cold file with one lookup day fewer in cold', () => {
    const p = plan([{ date: ago(40), location: 'cold' }], book({ [`${ago(40)}.md`]: { hits: 4 } }));
    expect(p.moves).toEqual([]);
    expect(p.pinned).toEqual([]);
  });
});

describe('planTide: pinMaxDays (row 5)', () => {
  it('keeps a pin idle for exactly pinMaxDays days', () => {
    const p = plan(
      [{ date: ago(200), location: 'hot' }],
      book({ [`${ago(200)}.md`]: { pinned: ago(100), lastHit: ago(90) } }),
    );
    expect(p.unpinned).toEqual([]);
    expect(p.moves).toEqual([]);
  });

  it('lapses a pin idle one day longer, and the file rejoins the rotation in the same pass', () => {
    const p = plan(
      [{ date: ago(200), location: 'hot' }],
      book({ [`${ago(200)}.md`]: { pinned: ago(100), lastHit: ago(91), hits: 9 } }),
    );
    expect(p.unpinned).toEqual([{ date: ago(200), idleDays: 91 }]);
    expect(p.moves).toEqual([{ date: ago(200), from: 'hot', to: 'cold', reason: 'unused' }]);
    expect(p.usage.files[`${ago(200)}.md`]?.pinned).toBeUndefined();
  });

  it('measures idleness from the pin day when the file was not looked up since', () => {
    const p = plan(
      [{ date: ago(300), location: 'hot' }],
      book({ [`${ago(300)}.md`]: { pinned: ago(91), lastHit: ago(250) } }),
    );
    expect(p.unpinned).toEqual([{ date: ago(300), idleDays: 91 }]);
  });
});

describe('planTide: coldMaxFiles (row 6)', () => {
  const cold = (n: number): DayFile[] =>
    Array.from({ length: n }, (_, i) => ({ date: ago(30 + i), location: 'cold' as const }));

  it('lets exactly coldMaxFiles files stay', () => {
    expect(plan(cold(120)).archived).toEqual([]);
  });

  it('sends the oldest cold files over coldMaxFiles to the archive and forgets their usage', () => {
    const p = plan(cold(122), book({ [`${ago(151)}.md`]: { hits: 1 } }));
    expect(p.archived).toEqual([
      { date: ago(151), from: 'cold' },
      { date: ago(150), from: 'cold' },
    ]);
    expect(p.usage.files[`${ago(151)}.md`]).toBeUndefined();
    expect(p.placement).toHaveLength(120);
  });

  it('archives a file sinking in this pass directly when it is the oldest', () => {
    const p = plan([...cold(2), { date: ago(400), location: 'hot' }], book(), { coldMaxFiles: 2 });
    expect(p.archived).toEqual([{ date: ago(400), from: 'hot' }]);
    expect(p.moves).toEqual([]);
  });

  it('reads coldMaxFiles 0 as no limit', () => {
    expect(plan(cold(5), book(), { coldMaxFiles: 0 }).archived).toEqual([]);
  });
});

describe('planTide: hotMaxFiles (row 7)', () => {
  const recent: DayFile[] = [0, 1, 2, 3, 4].map((n) => ({ date: ago(n), location: 'hot' }));

  it('does nothing when hotMaxFiles is 0', () => {
    expect(plan(recent, book(), { hotMaxFiles: 0 }).moves).toEqual([]);
  });

  it('sinks the oldest unpinned hot files over the cap, leaving pinned ones', () => {
    const files: DayFile[] = [...recent, { date: ago(50), location: 'hot' }];
    const p = plan(files, book({ [`${ago(50)}.md`]: { pinned: ago(1), lastHit: ago(1) } }), {
      hotMaxFiles: 4,
    });
    expect(p.moves).toEqual([
      { date: ago(4), from: 'hot', to: 'cold', reason: 'over_hot_max' },
      { date: ago(3), from: 'hot', to: 'cold', reason: 'over_hot_max' },
    ]);
    expect(where(p, ago(50))).toBe('hot');
  });

  it('warns when pinned files alone exceed the cap', () => {
    const usage = book({ [`${ago(50)}.md`]: { pinned: TODAY }, [`${ago(60)}.md`]: { pinned: TODAY } });
    const p = plan(
      [
        { date: ago(50), location: 'hot' },
        { date: ago(60), location: 'hot' },
      ],
      usage,
      { hotMaxFiles: 1 },
    );
    expect(p.moves).toEqual([]);
    expect(p.warnings[0]).toMatch(/over hotMaxFiles 1/);
  });
});

describe('planTide: legacy migration', () => {
  it('moves legacy files into hot, or straight to cold when old and unused', () => {
    const p = plan([
      { date: ago(1), location: 'legacy' },
      { date: ago(30), location: 'legacy' },
    ]);
    expect(p.migrated).toEqual([ago(30), ago(1)]);
    expect(p.moves).toEqual([
      { date: ago(30), from: 'legacy', to: 'cold', reason: 'unused' },
      { date: ago(1), from: 'legacy', to: 'hot', reason: 'recent' },
    ]);
  });
});

describe('planTide: bookkeeping', () => {
  it('leaves frozen files where they are, and drops usage of day files that are gone', () => {
    const usage = book({
      [`${ago(9)}.md`]: { hits: 1 },
      [`${ago(99)}.md`]: { hits: 1 },
      'MEMORY.md': { hits: 4 },
    });
    const p = plan([{ date: ago(9), location: 'hot', frozen: true }], usage);
    expect(p.moves).toEqual([]);
    expect(p.placement).toEqual([{ date: ago(9), location: 'hot' }]);
    expect(Object.keys(p.usage.files).sort()).toEqual([`${ago(9)}.md`, 'MEMORY.md']);
  });
});

describe('planTide: properties', () => {
  const dayArb = fc.integer({ min: -2, max: 400 }).map(ago);
  const entryArb = fc.record({
    hits: fc.integer({ min: 0, max: 8 }),
    lastHit: fc.option(fc.integer({ min: 0, max: 300 }).map(ago), { nil: undefined }),
    pinned: fc.option(fc.integer({ min: 0, max: 300 }).map(ago), { nil: undefined }),
  });
  const scenario = fc.record({
    files: fc.uniqueArray(
      fc.record({ date: dayArb, location: fc.constantFrom<DayLocation>('hot', 'cold', 'legacy') }),
      {
        selector: (f) => f.date,
        maxLength: 25,
      },
    ),
    entries: fc.array(entryArb, { maxLength: 25 }),
    cfg: fc.record({
      hotKeepDays: fc.integer({ min: 0, max: 10 }),
      promoteHits: fc.integer({ min: 1, max: 5 }),
      coldPromoteHits: fc.integer({ min: 1, max: 7 }),
      pinMaxDays: fc.integer({ min: 1, max: 120 }),
      coldMaxFiles: fc.integer({ min: 0, max: 10 }),
      hotMaxFiles: fc.integer({ min: 0, max: 6 }),
    }),
  });
  type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
  const build = (s: Scenario) => {
    const files: Record<string, Partial<UsageEntry>> = {};
    s.files.forEach((f, i) => {
      const e = s.entries[i];
      if (e) files[`${f.date}.md`] = Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined));
    });
    return book(files);
  };

  it('places every file once, never leaves a pinned file cold, and moves only to the final place', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const p = plan(s.files, build(s), s.cfg);
        const placed = p.placement.map((x) => x.date);
        expect(new Set(placed).size).toBe(placed.length);
        expect(placed.length + p.archived.length).toBe(s.files.length);
        for (const x of p.placement) {
          expect(x.location).not.toBe('legacy');
          if (p.usage.files[`${x.date}.md`]?.pinned) expect(x.location).toBe('hot');
        }
        for (const m of p.moves) expect(where(p, m.date)).toBe(m.to);
      }),
      { numRuns: 400, seed: 20261105 },
    );
  });

  it('is idempotent: planning again on the same day after applying changes nothing', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const first = plan(s.files, build(s), s.cfg);
        const applied: DayFile[] = first.placement.map((x) => ({ date: x.date, location: x.location }));
        const second = plan(applied, first.usage, s.cfg);
        expect(second.moves).toEqual([]);
        expect(second.pinned).toEqual([]);
        expect(second.unpinned).toEqual([]);
        expect(second.archived).toEqual([]);
        expect(second.usage).toEqual(first.usage);
      }),
      { numRuns: 400, seed: 7 },
    );
  });
});
