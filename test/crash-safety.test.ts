/**
 * Crash safety (issue #6): real processes SIGKILLed at seeded random moments — a writer, a night, a journal tend —
 * lose nothing they acknowledged, leave nothing half-written, and finish the same after a rerun.
 * Past 400 lines on purpose (STYLE §4): the three kill scenarios share their checks and helpers.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../src/app/sleep.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { FixedClock } from '../src/core/clock.js';
import type { Layer } from '../src/core/types.js';
import { mulberry32, type Rng } from '../src/script/seeded-rng.js';
import { SHARED_FTS_TABLES, spaceFtsTables } from '../src/store/sqlite/sqlite-search.js';
import type { NightResult } from '../src/sleep/night-types.js';
import { pause, spawnChild } from './helpers/killable-child.js';
import { startResponderServer } from './helpers/responder-llm-server.js';
import { BIN } from './helpers/run-cli.js';
import { recordDay } from './sleep-fixtures.js';
import { T0 } from './helpers/temp-memory.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'crash');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tidepool-crash-'));
  dirs.push(d);
  return d;
}

/** One write the writer printed after its promise resolved. */
type Ack =
  | { op: 'rec'; tag: string; n: number; ids: string[] }
  | { op: 'rem'; tag: string; key: string; id: string; episodeId: string };

function parseAck(line: string): Ack | undefined {
  const [op, tag, a, b, c] = line.split(' ');
  if (op === 'rec') return { op, tag: tag!, n: Number(a), ids: b!.split(',') };
  if (op === 'rem') return { op, tag: tag!, key: a!, id: b!, episodeId: c! };
  return undefined;
}

/** The writer's order of writes: round, then call number (`r3b12`). */
function order(tag: string): number {
  const [, round, i] = /^r(\d+)b(\d+)$/.exec(tag)!;
  return Number(round) * 1_000_000 + Number(i);
}

/** Turns of the writer's batch `r<round>b<i>`: 2 + i mod 5. */
function batchSize(tag: string): number {
  return 2 + (order(tag) % 1_000_000) % 5;
}

/** The FTS5 tables in the file: the shared ones of the first layout and each space's own (search_tables). */
function ftsTables(db: Database.Database): Array<{ name: string; layer: Layer; space: string | null }> {
  const shared = Object.entries(SHARED_FTS_TABLES).flatMap(([layer, names]) => names.map((name) => ({ name, layer: layer as Layer, space: null })));
  const own = (db.prepare('SELECT n, space, layer FROM search_tables').all() as Array<{ n: number; space: string; layer: Layer }>).flatMap((r) =>
    Object.values(spaceFtsTables(r.layer, r.n)).map((name) => ({ name, layer: r.layer, space: r.space })),
  );
  return [...shared, ...own];
}

/**
 * Everything the writer acknowledged is in the file, every call is all or nothing, the search indexes match the
 * rows, and SQLite finds the file sound. Returns how many writes were committed without being acknowledged.
 */
async function verifyWriterFile(path: string, acked: readonly Ack[]): Promise<number> {
  const db = new Database(path);
  let unacked = 0;
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const fts = ftsTables(db);
    for (const t of fts) db.exec(`INSERT INTO ${t.name}(${t.name}) VALUES('integrity-check')`);
    const ids = (sql: string, ...params: string[]) => (db.prepare(sql).pluck().all(...params) as number[]).sort((a, b) => a - b);
    // Every episode is in its space's BM25 index, and the index holds nothing else; the shared tables stay empty.
    for (const [layer, table] of [['episode', 'episodes'], ['knowledge', 'knowledge']] as const) {
      for (const t of fts.filter((x) => x.layer === layer && x.name.includes('_fts'))) {
        expect(ids(`SELECT rowid FROM ${t.name}`), t.name).toEqual(t.space === null ? [] : ids(`SELECT id FROM ${table} WHERE space = ?`, t.space));
      }
      const spaces = db.prepare(`SELECT DISTINCT space FROM ${table}`).pluck().all() as string[];
      for (const space of spaces) expect(fts.some((t) => t.layer === layer && t.space === space), `${table} of ${space}`).toBe(true);
    }

    // record: a batch is in the file with all of its turns or not at all.
    const sessions = db
      .prepare("SELECT session, count(*) AS n, group_concat(id) AS ids FROM episodes WHERE source = 'record' GROUP BY session")
      .all() as Array<{ session: string; n: number; ids: string }>;
    const bySession = new Map(sessions.map((s) => [s.session, s]));
    for (const s of sessions) expect(s.n, `batch ${s.session}`).toBe(batchSize(s.session));
    const recs = acked.filter((a) => a.op === 'rec');
    for (const a of recs) {
      const s = bySession.get(a.tag);
      expect(s, `acknowledged batch ${a.tag}`).toBeDefined();
      expect(s!.ids.split(',').map((x) => `e${x}`).sort()).toEqual([...a.ids].sort());
    }
    unacked += sessions.length - recs.length;

    // remember: the episode and its knowledge entry are written together; a key has exactly one live entry, and it
    // is the last acknowledged value or the one write after it that was cut off before its acknowledgement.
    const memories = db.prepare("SELECT id, content FROM episodes WHERE source = 'remember'").all() as Array<{ id: number; content: string }>;
    const knowledge = db.prepare('SELECT id, key, content, status, evidence, superseded_by FROM knowledge').all() as Array<{
      id: number;
      key: string;
      content: string;
      status: string;
      evidence: string;
      superseded_by: number | null;
    }>;
    expect(knowledge.length).toBe(memories.length);
    const byEpisode = new Map(knowledge.map((k) => [(JSON.parse(k.evidence) as { episodes: number[] }).episodes[0], k]));
    for (const m of memories) expect(byEpisode.get(m.id)?.content, `knowledge of episode ${m.id}`).toBe(m.content);
    const byId = new Map(knowledge.map((k) => [`k${k.id}`, k]));
    const rems = acked.filter((a) => a.op === 'rem');
    for (const a of rems) {
      expect(byId.get(a.id)?.content, `acknowledged remember ${a.tag}`).toContain(` ${a.tag} `);
      expect(byEpisode.get(Number(a.episodeId.slice(1)))?.id).toBe(Number(a.id.slice(1)));
    }
    unacked += memories.length - rems.length;
    const tagOf = (content: string) => / is now (r\d+b\d+) /.exec(content)![1]!;
    for (const key of new Set(knowledge.map((k) => k.key))) {
      const versions = knowledge.filter((k) => k.key === key).sort((a, b) => order(tagOf(a.content)) - order(tagOf(b.content)));
      const live = versions.filter((k) => k.status !== 'superseded');
      expect(live, `live entries of ${key}`).toHaveLength(1);
      expect(live[0]).toBe(versions.at(-1));
      // Each older version points to the next one.
      for (let v = 0; v + 1 < versions.length; v++) expect(versions[v]!.superseded_by).toBe(versions[v + 1]!.id);
    }
    // A kill loses at most the call in flight: in each round, the only write committed but not acknowledged is the
    // one right after the round's last acknowledged write (keys are shared by rounds, so two kills may each leave
    // one unacknowledged version of the same key).
    const committed = [...sessions.map((x) => x.session), ...knowledge.map((k) => tagOf(k.content))];
    const ackedTags = new Set(acked.map((a) => a.tag));
    const lastAckedOf = new Map<number, number>();
    for (const a of acked) {
      const r = Math.floor(order(a.tag) / 1_000_000);
      lastAckedOf.set(r, Math.max(lastAckedOf.get(r) ?? -1, order(a.tag) % 1_000_000));
    }
    for (const tag of committed.filter((t) => !ackedTags.has(t))) {
      const r = Math.floor(order(tag) / 1_000_000);
      expect(order(tag) % 1_000_000, `unacknowledged ${tag}: the call in flight when round ${r} was killed`).toBe((lastAckedOf.get(r) ?? -1) + 1);
    }
  } finally {
    db.close();
  }
  return unacked;
}

describe('a writer killed at random moments', () => {
  it(
    'keeps every acknowledged record batch and remember across 12 SIGKILLs, each call all or nothing, indexes in step',
    { timeout: 180_000 },
    async () => {
      const path = join(tempDir(), 'memory.db');
      const rng = mulberry32(6_2026);
      const acked: Ack[] = [];
      const ROUNDS = 12;
      let unacked = 0;
      let beforeReady = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const child = spawnChild([join(FIXTURES, 'writer.mjs'), path, String(round)]);
        // Most kills land while writing; every fifth is timed from the start, so it may land in the open itself (in
        // round 0, the creation of the file and its migration).
        if (round % 5 === 0) await pause(150 + rng() * 350);
        else {
          await child.waitForLine((l) => l === 'ready');
          await pause(rng() * 200);
        }
        const end = await child.kill();
        expect(end.signal, `round ${round}: ${end.stderr}`).toBe('SIGKILL');
        expect(end.stderr).toBe('');
        if (!end.lines.includes('ready')) beforeReady += 1;
        const mine = end.lines.map(parseAck).filter((a): a is Ack => a !== undefined);
        acked.push(...mine);

        // The library reopens the file as a user would: doctor finds it sound, and a lexical recall finds each batch
        // this round acknowledged by a word of its first turn.
        const memory = await openMemory({ path, embedder: 'none', warn: () => {} });
        try {
          expect((await memory.doctor()).integrity).toBe('ok');
          for (const a of mine.filter((x) => x.op === 'rec').slice(-10)) {
            const hits = await memory.recall({ query: `${a.tag}t0`, layers: ['episode'] });
            expect(hits.map((h) => h.id), `recall ${a.tag}t0`).toContain(a.ids[0]);
          }
        } finally {
          await memory.close();
        }
        unacked = await verifyWriterFile(path, acked);
        expect(unacked, `round ${round}: committed but not acknowledged`).toBeLessThanOrEqual(round + 1);
      }
      // The kills hit real work: acknowledged writes of both kinds. How many depends on the machine's speed, so the
      // count is logged below, not asserted (throughput belongs to `tidepool bench crash`).
      expect(acked.filter((a) => a.op === 'rec').length).toBeGreaterThan(0);
      expect(acked.filter((a) => a.op === 'rem').length).toBeGreaterThan(0);
      console.log(
        `writer: ${ROUNDS} kills (${beforeReady} before the file was open), ${acked.length} acknowledged writes, ${unacked} committed unacknowledged`,
      );
    },
  );
});

const DAY = 86_400_000;

/** A working day as the sleep tests record it: 60 turns and tool results in 5 sessions, and one remembered fact. */
async function seedDay(path: string): Promise<void> {
  const memory = await openMemory({ path, embedder: 'none', clock: new FixedClock(T0), warn: () => {} });
  await memory.remember({ text: 'Integration tests are flaky on the login flow', durable: false });
  await recordDay(memory, T0, 60);
  // Closing the only connection checkpoints the WAL into the file, so a plain copy holds everything.
  await memory.close();
}

/** Every row of every table of the space, and the ids each search index holds. */
async function memoryState(path: string): Promise<Record<string, unknown[]>> {
  const memory = await openMemory({ path, embedder: 'none', warn: () => {} });
  const out: Record<string, unknown[]> = {};
  try {
    const store = appContextOf(memory).store;
    for (const table of store.rows.tables()) {
      const rows: unknown[] = [];
      for await (const row of store.rows.dump(memory.space, table)) rows.push(row);
      out[table] = rows;
    }
  } finally {
    await memory.close();
  }
  const db = new Database(path);
  try {
    // Keyed by space and layer, not by the tables' numbers (the order spaces first wrote in).
    for (const t of ftsTables(db)) {
      out[`${t.space ?? 'shared'} ${t.layer} ${t.name.includes('_tri') ? 'tri' : 'fts'}`] = db.prepare(`SELECT rowid FROM ${t.name} ORDER BY rowid`).pluck().all();
    }
  } finally {
    db.close();
  }
  return out;
}

/** SQLite and each FTS5 index find the file sound. */
/** Nights of the file still `running`: what a killed night leaves for the next one to resume. */
function openRuns(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM sleep_runs WHERE status = 'running'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function assertSound(path: string): void {
  const db = new Database(path);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    for (const t of ftsTables(db)) db.exec(`INSERT INTO ${t.name}(${t.name}) VALUES('integrity-check')`);
  } finally {
    db.close();
  }
}

/** Where a night's child is killed: when its j-th model request arrives, or `ms` after its j-th answer was sent. */
type KillPoint = { at: 'request'; j: number } | { at: 'answer'; j: number; ms: number };

/** The k-th kill of a chain: before an answer, inside the unit applying one, then later in the night. */
function drawKillPoint(rng: Rng, k: number): KillPoint {
  if (k === 0) return { at: 'request', j: 1 + Math.floor(rng() * 2) };
  if (k === 1) return { at: 'answer', j: 1 + Math.floor(rng() * 2), ms: Math.floor(rng() * 15) };
  return { at: 'answer', j: 2 + Math.floor(rng() * 2), ms: 20 + Math.floor(rng() * 150) };
}

describe('a night killed mid-way', () => {
  it(
    'ends, after SIGKILLs of `tidepool sleep` before answers, inside units and between steps, equal to an uninterrupted night',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const seed = join(dir, 'seed.db');
      await seedDay(seed);
      const server = await startResponderServer();
      const NIGHT = new Date(T0 + DAY).toISOString();
      const MODEL = 'openai:responder';
      const env = { TIDEPOOL_OPENAI_BASE_URL: server.url, TIDEPOOL_OPENAI_API_KEY: 'test-key' };
      /** A whole night in this process, through the same OpenAI provider and endpoint as the CLI's. */
      const nightHere = async (path: string): Promise<NightResult> => {
        const config = { sleep: { openaiBaseUrl: server.url, openaiApiKey: 'test-key' } };
        const memory = await openMemory({ path, embedder: 'none', config, warn: () => {} });
        try {
          return await sleep(appContextOf(memory), { model: MODEL, now: NIGHT });
        } finally {
          await memory.close();
        }
      };
      try {
        const a = join(dir, 'a.db');
        copyFileSync(seed, a);
        const reference = await nightHere(a);
        expect(reference).toMatchObject({ kind: 'slept', resumed: false });
        const headline = reference.kind === 'slept' ? reference.briefing.headline : '';
        expect(headline).toMatch(/ from 60 episodes\.$/);
        const requests = server.steps.length;
        // One solidify call reads the day (narratives and knowledge), then comb, dream, self-image, PII watch: room
        // for every kill point drawn below (requests 1-3, answers 1-3).
        expect(requests).toBeGreaterThanOrEqual(5);
        const expected = await memoryState(a);
        expect(expected.knowledge!.length).toBeGreaterThan(2);
        expect(expected.narratives!.length).toBeGreaterThan(2);

        const rng = mulberry32(1_106);
        const landed: string[] = [];
        for (const chain of [0, 1]) {
          const b = join(dir, `b${chain}.db`);
          copyFileSync(seed, b);
          for (let k = 0; k < 3; k++) {
            const point = drawKillPoint(rng, k);
            const before = server.steps.length;
            const child = spawnChild([BIN, 'sleep', '--db', b, '--model', MODEL, '--now', NIGHT, '--json'], env);
            server.hooks.beforeAnswer = async (n) => {
              if (point.at === 'request' && n - before === point.j) await child.kill();
              // Past an answer kill, the next question waits for the kill, so the night cannot finish first.
              if (point.at === 'answer' && n - before > point.j) await child.ended;
            };
            server.hooks.afterAnswer = (n) => {
              if (point.at === 'answer' && n - before === point.j) void pause(point.ms).then(() => child.kill());
            };
            const end = await child.ended;
            delete server.hooks.beforeAnswer;
            delete server.hooks.afterAnswer;
            // Answers stored by a killed night are reused, so a later night of the chain asks fewer questions: a kill
            // drawn after its last answer can come after the night has finished and exited on its own.
            if (end.signal !== 'SIGKILL') {
              expect(end.code, `chain ${chain}, ${JSON.stringify(point)}: ${end.stderr}`).toBe(0);
              landed.push('none: the night finished first');
              continue;
            }
            const step = server.steps[before + point.j - 1];
            landed.push(point.at === 'request' ? `asking ${step}` : `${point.ms} ms after the ${step} answer`);
            assertSound(b);
          }
          // The killed process's lock does not stand in the way: the next night resumes the run at once. A kill
          // that lands after the run's last write (the last answer, then a short finish) leaves no run to resume:
          // then the night has nothing left, and the memory must still equal the uninterrupted night's.
          const open = openRuns(b);
          if (open > 0) expect(await nightHere(b)).toMatchObject({ kind: 'slept', resumed: true, briefing: { headline } });
          else {
            landed.push('then no run left to resume');
            expect(await nightHere(b)).toMatchObject({ kind: 'awake' });
          }
          assertSound(b);
          expect(await memoryState(b), `chain ${chain}`).toEqual(expected);
        }
        // Most kills land inside a night (the first of each chain always can: nothing is cached yet).
        expect(landed.filter((l) => l.startsWith('asking') || l.includes(' ms after the ')).length).toBeGreaterThanOrEqual(4);
        console.log(`sleep: ${requests} model requests a night, ${landed.length} events: ${landed.join(' | ')}`);
      } finally {
        await server.close();
      }
    },
  );
});

/** The journal's fixed "today" for the tend tests. */
const TODAY = '2026-11-20';
const daysBefore = (n: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
type Place = 'legacy' | 'hot' | 'cold' | 'archived';
const REL: Record<Exclude<Place, 'archived'>, (date: string) => string> = {
  legacy: (d) => `memory/${d}.md`,
  hot: (d) => `memory/archive/hot/${d}.md`,
  cold: (d) => `memory/archive/cold/${d}.md`,
};

/**
 * A workspace with work for every tide rule: 30 legacy days to migrate (recent ones to hot, older ones to cold), old
 * unused hot days that sink, a recent day found in cold that floats back, and a cold tier over `coldMaxFiles` whose
 * oldest days go to the archive database. Returns each day's SHA-256.
 */
function buildWorkspace(root: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const put = (place: Exclude<Place, 'archived'>, n: number) => {
    const date = daysBefore(n);
    const lines = Array.from({ length: 1 + (n % 7) }, (_, i) => `- 第 ${i + 1} 条：查了 sync race ${n}-${i}，终于找到竞态。`);
    const text = `# ${date}\n\n## 【09:${String(n % 60).padStart(2, '0')} kestrel notes ${n}】\n${lines.join('\n')}\n`;
    const file = join(root, REL[place](date));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    hashes.set(date, sha(text));
  };
  for (let n = 0; n < 60; n += 2) put('legacy', n);
  for (const n of [21, 23, 25, 27, 29, 31]) put('hot', n);
  put('cold', 1);
  for (let n = 65; n < 95; n += 3) put('cold', n);
  writeFileSync(join(root, 'memory', '.tide.json'), JSON.stringify({ coldMaxFiles: 15 }, null, 2));
  return hashes;
}

/** Where each day of `hashes` is now, checking every copy's bytes against the original. */
async function placesOf(memory: Tidepool, root: string, hashes: Map<string, string>): Promise<Map<string, Place[]>> {
  const out = new Map<string, Place[]>();
  for (const [date, hash] of hashes) {
    const places: Place[] = [];
    for (const place of ['legacy', 'hot', 'cold'] as const) {
      const file = join(root, REL[place](date));
      if (!existsSync(file)) continue;
      expect(sha(readFileSync(file)), `${date} in ${place}`).toBe(hash);
      places.push(place);
    }
    const archived = await appContextOf(memory).store.forSpace(memory.space).journal.archivedDay(root, date);
    if (archived) {
      expect(sha(archived.content), `${date} in the archive`).toBe(hash);
      places.push('archived');
    }
    out.set(date, places);
  }
  return out;
}

describe('a journal tend killed at random moments', () => {
  it(
    'never loses or alters a day file, and the next tend puts every day in exactly one place, as an uninterrupted tend does',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const path = join(dir, 'memory.db');
      const template = join(dir, 'template');
      const hashes = buildWorkspace(template);
      const clock = new FixedClock(Date.parse(`${TODAY}T12:00:00Z`));
      const memory = await openMemory({ path, embedder: 'none', clock, warn: () => {} });
      try {
        const fresh = (name: string) => {
          const root = join(dir, name);
          cpSync(template, root, { recursive: true });
          return realpathSync(root);
        };
        // The reference: one uninterrupted tend in a child, timed so that random kills spread over a whole tend.
        const refRoot = fresh('reference');
        const refChild = spawnChild([join(FIXTURES, 'tender.mjs'), path, refRoot, TODAY, 'free']);
        await refChild.waitForLine((l) => l === 'start');
        const started = performance.now();
        const [, moves, archived] = (await refChild.waitForLine((l) => l.startsWith('done '))).split(' ').map(Number);
        const tendMs = performance.now() - started;
        expect((await refChild.ended).code).toBe(0);
        expect(archived).toBeGreaterThan(0);
        const reference = await placesOf(memory, refRoot, hashes);
        for (const [date, places] of reference) expect(places, date).toHaveLength(1);
        expect([...reference.values()].filter((p) => p[0] === 'legacy')).toEqual([]);
        const steps = 2 * moves!;

        const rng = mulberry32(2_611);
        const landed: string[] = [];
        for (let round = 0; round < 3; round++) {
          const root = fresh(`ws${round}`);
          for (const mode of ['step', 'free'] as const) {
            const n = 1 + Math.floor(rng() * steps);
            let delay = -1;
            const child = spawnChild([join(FIXTURES, 'tender.mjs'), path, root, TODAY, mode === 'step' ? `step:${n}` : 'free']);
            if (mode === 'step') await child.waitForLine((l) => l === 'blocked');
            else {
              await child.waitForLine((l) => l === 'start');
              // Within the first 80 % of a tend's measured length, which varies from run to run on a busy machine.
              delay = Math.round(rng() * tendMs * 0.8);
              await pause(delay);
            }
            const end = await child.kill();
            expect(end.stderr).toBe('');
            const lastStep = end.lines.filter((l) => /^(copied|removed) /.test(l)).at(-1) ?? 'before any move';
            landed.push(`${end.signal === 'SIGKILL' ? '' : 'finished, '}${delay < 0 ? `at ${lastStep}` : `${delay} ms in, after ${lastStep}`}`);
            // Mid-way a day may have two identical names (linked, not yet unlinked), never none and never other bytes.
            for (const [date, places] of await placesOf(memory, root, hashes)) expect(places.length, date).toBeGreaterThanOrEqual(1);
          }
          // A tend in this process takes over the dead process's .tide.lock and finishes the work.
          await memory.journal().tend({ root });
          expect(await placesOf(memory, root, hashes)).toEqual(reference);
          const leftovers = readdirSync(join(root, 'memory'), { recursive: true }).map(String);
          expect(leftovers.filter((f) => f.endsWith('.tmp') || f.endsWith('.tide.lock'))).toEqual([]);
        }
        expect((await memory.doctor()).integrity).toBe('ok');
        expect(landed.filter((l) => !l.startsWith('finished')).length).toBeGreaterThanOrEqual(4);
        console.log(`journal: ${steps} move steps in a ${Math.round(tendMs)} ms tend, ${landed.length} events: ${landed.join(' | ')}`);
      } finally {
        await memory.close();
      }
    },
  );
});
