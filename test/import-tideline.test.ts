/** Switching from Tideline: a real Tideline SQLite database imported with every table, links remapped, idempotently. */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportFileInput, ImportFileResult } from '../src/app/import-sessions.js';
import { readGraph } from '../src/app/read-graph.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

// Tideline's tables as server._init() and the v2.4 scripts create them (SEEDS §1.3).
const SCHEMA = `
CREATE TABLE narratives (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, ntype TEXT DEFAULT 'general',
  tags TEXT DEFAULT '[]', embedding TEXT, created_at TEXT NOT NULL, gesture TEXT, context_layer TEXT, moment TEXT,
  cognition_direction TEXT, related_entities TEXT, source_links TEXT, entities_role TEXT, weight REAL,
  importance INTEGER, emotional INTEGER, recurrence INTEGER, unresolved INTEGER);
CREATE TABLE profiles (id INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT NOT NULL, ptype TEXT DEFAULT 'contact',
  content TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE(entity, ptype));
CREATE TABLE snapshots (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE context (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, embedding TEXT, meta TEXT DEFAULT '{}',
  created_at TEXT NOT NULL);
CREATE TABLE threads (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, importance INTEGER DEFAULT 3,
  emotional INTEGER DEFAULT 3, recurrence INTEGER DEFAULT 3, unresolved INTEGER DEFAULT 3, weight REAL,
  status TEXT DEFAULT 'open', created_at TEXT NOT NULL, explored_at TEXT);
CREATE TABLE self_concept (id INTEGER PRIMARY KEY AUTOINCREMENT, field TEXT UNIQUE NOT NULL, content TEXT NOT NULL,
  updated_at TEXT NOT NULL);
CREATE TABLE topic_clusters (id INTEGER PRIMARY KEY AUTOINCREMENT, cluster_name TEXT UNIQUE, noun_freq INTEGER,
  narrative_ids TEXT, last_active TEXT, avg_weight REAL);
`;

/** Python's json.dumps default: non-ASCII as \\uXXXX (SEEDS T-3). */
function pyJson(v: unknown): string {
  return JSON.stringify(v).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function buildTideline(dir: string): string {
  const path = join(dir, 'mcp_memory.db');
  const db = new Database(path);
  db.exec(SCHEMA);
  const ctx = db.prepare(
    'INSERT INTO context (id, content, embedding, meta, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  // Ids with gaps, as a long-lived Tideline database has them.
  ctx.run(3, '[USER] 同步服务又挂了', null, pyJson({ session: 'sess-1' }), '2025-08-14T09:10:00Z');
  ctx.run(
    7,
    '[ASSISTANT] 我去看看连接池',
    '[0.5, 0.5, 0.0]',
    '{"session": "sess-1"}',
    '2025-08-14T09:11:00Z',
  );
  ctx.run(9, '周报：本周三次会话', null, '{"source": "session-scan", "iso_week": 33}', '2025-08-11 23:59:00');
  const nar =
    db.prepare(`INSERT INTO narratives (content, ntype, tags, embedding, created_at, gesture, context_layer, moment,
    cognition_direction, related_entities, source_links, entities_role, weight, importance, emotional, recurrence, unresolved)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  nar.run(
    '我第三次调试同步服务 | 深夜 | 连接池耗尽',
    'moment',
    pyJson(['调试', '数据库']),
    '[0.1, -0.2, 0.3]',
    '2025-08-14 09:20:00',
    '我第三次调试同步服务',
    '深夜',
    '连接池耗尽',
    '下次先查连接池',
    pyJson(['阿明']),
    '[3, 7, 42]',
    'A=判断+执行; 阿明=审查',
    0.65,
    4,
    3,
    3,
    4,
  );
  nar.run(
    'legacy row without scores',
    'general',
    '["a", "b"]',
    null,
    '2025-08-14T09:30:00Z',
    null,
    null,
    null,
    null,
    null,
    '["9"]',
    null,
    null,
    null,
    null,
    null,
    null,
  );
  nar.run(
    'a dream of tides',
    'general',
    "['梦', 'dream']",
    null,
    '2025-08-15T02:00:00Z',
    'a dream of tides',
    null,
    null,
    null,
    '[]',
    '',
    null,
    0.2,
    1,
    2,
    2,
    2,
  );
  db.prepare('INSERT INTO profiles (entity, ptype, content, updated_at) VALUES (?, ?, ?, ?)').run(
    '阿明',
    'impression',
    '总是负责审查',
    '2025-08-10 08:00:00',
  );
  db.prepare('INSERT INTO profiles (entity, ptype, content, updated_at) VALUES (?, ?, ?, ?)').run(
    'Ana',
    'colleague',
    'works on billing',
    '2025-08-10 08:00:00',
  );
  db.prepare('INSERT INTO snapshots (content, created_at) VALUES (?, ?)').run(
    '有点累，但专注',
    '2025-08-14 22:00:00',
  );
  db.prepare(
    'INSERT INTO threads (content, weight, status, created_at, explored_at) VALUES (?, ?, ?, ?, ?)',
  ).run('连接池为什么总是不够？', 0.55, 'explored', '2025-08-14 09:40:00', '2025-08-15T01:00:00Z');
  db.prepare('INSERT INTO self_concept (field, content, updated_at) VALUES (?, ?, ?)').run(
    'terrain',
    '擅长排查',
    '2025-08-13 10:00:00',
  );
  db.prepare(
    'INSERT INTO topic_clusters (cluster_name, noun_freq, narrative_ids, last_active, avg_weight) VALUES (?, ?, ?, ?, ?)',
  ).run('连接池', 2, '[1, 2]', '2025-08-14T17:45:00+08:00', 0.6);
  db.close();
  return path;
}

function file(path: string): ImportFileInput {
  return {
    path,
    readHead: async (n) => readFileSync(path).subarray(0, n),
    readAll: async () => readFileSync(path),
  };
}

function imported(r: ImportFileResult): Extract<ImportFileResult, { status: 'imported' }> {
  if (r.status !== 'imported') throw new Error(`import failed: ${r.reason}`);
  return r;
}

let t: TempMemory | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('import of a Tideline database', () => {
  it('brings the raw log, narratives with remapped source_links, identity and topic clusters over, every field', async () => {
    t = await tempMemory();
    const r = imported(await t.memory.importFile(file(buildTideline(t.dir))));
    expect(r).toMatchObject({ format: 'tideline', turns: 3, imported: 3, skipped: 0 });
    expect(r.tideline).toMatchObject({
      narratives: { imported: 3, skipped: 0 },
      profiles: 2,
      selfConcept: 1,
      snapshots: 1,
      threads: 1,
      topicClusters: 1,
      vectors: 2,
      droppedLinks: 1,
    });
    const store = appContextOf(t.memory).store;
    const eps = await store.forSpace('default').episodes.idsByRef(
      [3, 7, 9].map((id) => `tideline:mcp_memory.db:context:${id}`),
    );
    const epIds = [3, 7, 9].map((id) => eps.get(`tideline:mcp_memory.db:context:${id}`)!);
    const user = await store.forSpace('default').episodes.get(epIds[0]!);
    expect(user).toMatchObject({
      role: 'user',
      content: '同步服务又挂了',
      session: 'sess-1',
      occurredAt: Date.UTC(2025, 7, 14, 9, 10),
      source: 'import',
      durable: true,
    });
    expect(await store.forSpace('default').episodes.get(epIds[2]!)).toMatchObject({ kind: 'note', role: 'assistant' });

    const narratives = await store.forSpace('default').narratives.list({ limit: 10 });
    const first = narratives.find((n) => n.gesture === '我第三次调试同步服务')!;
    expect(first).toMatchObject({
      kind: 'narrative',
      ntype: 'moment',
      context: '深夜',
      moment: '连接池耗尽',
      cognitionDirection: '下次先查连接池',
      tags: ['调试', '数据库'],
      relatedEntities: ['阿明'],
      entitiesRole: 'A=判断+执行; 阿明=审查',
      importance: 4,
      emotional: 3,
      recurrence: 3,
      unresolved: 4,
      createdAt: Date.UTC(2025, 7, 14, 9, 20),
    });
    // Context ids 3 and 7 became the new episode ids; 42 named a row the database does not hold.
    expect(first.sourceLinks).toEqual([epIds[0], epIds[1]]);
    expect(first.weight).toBeCloseTo((0.65 * 5 - 1) / 4, 4);
    const legacy = narratives.find((n) => n.content === 'legacy row without scores')!;
    // SEEDS §1.5.1 legacy backfill: general → importance 2, two tags → recurrence 3, unresolved 2.
    expect(legacy).toMatchObject({
      importance: 2,
      emotional: 3,
      recurrence: 3,
      unresolved: 2,
      sourceLinks: [epIds[2]],
    });
    expect(narratives.find((n) => n.content === 'a dream of tides')).toMatchObject({
      kind: 'dream',
      tags: ['梦', 'dream'],
      importance: 1,
    });

    const profiles = await store.forSpace('default').identity.profiles();
    expect(profiles.map((p) => [p.entity, p.ptype, p.content]).sort()).toEqual([
      ['Ana', 'contact', 'works on billing'],
      ['阿明', 'impression', '总是负责审查'],
    ]);
    expect(r.warnings.join('\n')).toContain('profile Ana: type "colleague" stored as contact');
    expect((await store.forSpace('default').identity.selfConcept()).map((s) => [s.field, s.content])).toEqual([
      ['terrain', '擅长排查'],
    ]);
    expect((await store.forSpace('default').identity.snapshots(5)).map((s) => s.content)).toEqual(['有点累，但专注']);
    const [thread] = await store.forSpace('default').identity.threads('all', 5);
    expect(thread).toMatchObject({
      content: '连接池为什么总是不够？',
      status: 'explored',
      exploredAt: Date.UTC(2025, 7, 15, 1),
    });
    const [cluster] = await store.forSpace('default').derived.topicClusters({ minSize: 1, limit: 5 });
    expect(cluster).toMatchObject({ name: '连接池', size: 2, lastActive: Date.UTC(2025, 7, 14, 9, 45) });
    expect(cluster!.narrativeIds).toEqual([first.id, legacy.id]);
    expect(await store.forSpace('default').vectors.count('tideline-local')).toBe(2);

    // The imported narratives feed the script layer at once: the graph reads their entities_role.
    await t.memory.script('entity-graph');
    const pair = await readGraph(appContextOf(t.memory), { pair: 'A,阿明' });
    expect(pair.kind).toBe('pair');
  });

  it('a second import of the same database adds nothing and changes nothing', async () => {
    t = await tempMemory();
    const path = buildTideline(t.dir);
    imported(await t.memory.importFile(file(path)));
    const before = { ...(await counts(t)) };
    const again = imported(await t.memory.importFile(file(path)));
    expect(again).toMatchObject({ imported: 0, skipped: 3 });
    expect(again.tideline).toMatchObject({
      narratives: { imported: 0, skipped: 3 },
      profiles: 0,
      selfConcept: 0,
      snapshots: 0,
      threads: 0,
      topicClusters: 0,
    });
    expect(await counts(t)).toEqual(before);
  });

  it('a newer copy of the database adds only the rows that are new', async () => {
    t = await tempMemory();
    const path = buildTideline(t.dir);
    imported(await t.memory.importFile(file(path)));
    const db = new Database(path);
    db.prepare('INSERT INTO context (id, content, meta, created_at) VALUES (?, ?, ?, ?)').run(
      11,
      '[USER] 又一次',
      '{}',
      '2025-08-16T09:00:00Z',
    );
    db.prepare(
      `INSERT INTO narratives (content, tags, created_at, gesture, source_links, weight, importance, emotional, recurrence, unresolved)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run('new one', '[]', '2025-08-16T09:05:00Z', 'new one', '[11, 3]', 0.5, 3, 3, 3, 3);
    db.close();
    const r = imported(await t.memory.importFile(file(path)));
    expect(r).toMatchObject({ imported: 1, skipped: 3 });
    expect(r.tideline?.narratives).toEqual({ imported: 1, skipped: 3 });
    const eps = await appContextOf(t.memory).store.forSpace('default').episodes.idsByRef([
      'tideline:mcp_memory.db:context:11',
      'tideline:mcp_memory.db:context:3',
    ]);
    const [newest] = await appContextOf(t.memory).store.forSpace('default').narratives.list({ limit: 1 });
    // Links keep Tideline's order, each mapped to its episode.
    expect(newest!.sourceLinks).toEqual([
      eps.get('tideline:mcp_memory.db:context:11'),
      eps.get('tideline:mcp_memory.db:context:3'),
    ]);
  });

  it('reports a file that is not a Tideline database as failed', async () => {
    t = await tempMemory();
    const r = await t.memory.importFile({
      ...file(join(import.meta.dirname, 'fixtures', 'import', 'locomo-mini.json')),
      format: 'tideline',
    });
    expect(r.status).toBe('failed');
  });
});

async function counts(m: TempMemory) {
  const s = appContextOf(m.memory).store;
  return {
    episodes: await s.forSpace('default').episodes.count(),
    narratives: await s.forSpace('default').narratives.count(),
    profiles: (await s.forSpace('default').identity.profiles()).length,
    snapshots: (await s.forSpace('default').identity.snapshots(100)).length,
    threads: (await s.forSpace('default').identity.threads('all', 100)).length,
    clusters: (await s.forSpace('default').derived.topicClusters({ minSize: 1, limit: 100 })).length,
  };
}
