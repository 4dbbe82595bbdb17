import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeList, parseTidelineTime } from '../script/import-formats/decode-tideline-db.js';
import { tidelineContextTurns } from '../script/import-formats/tideline-turns.js';
import { readTidelineDb } from './read-tideline-db.js';

/** Tideline's schema as `server._init()` and the v2.4 scripts create it (SEEDS §1.3), FTS and triggers included. */
const SCHEMA = `
CREATE TABLE narratives (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, ntype TEXT DEFAULT 'general',
  tags TEXT DEFAULT '[]', embedding TEXT, created_at TEXT NOT NULL, gesture TEXT, context_layer TEXT, moment TEXT,
  cognition_direction TEXT, related_entities TEXT, source_links TEXT, entities_role TEXT, weight REAL,
  importance INTEGER, emotional INTEGER, recurrence INTEGER, unresolved INTEGER);
CREATE INDEX ix_nar_ntype ON narratives(ntype);
CREATE INDEX ix_nar_ca ON narratives(created_at);
CREATE INDEX ix_nar_weight ON narratives(weight);
CREATE TABLE profiles (id INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT NOT NULL, ptype TEXT DEFAULT 'contact',
  content TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE(entity, ptype));
CREATE TABLE snapshots (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE context (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, embedding TEXT, meta TEXT DEFAULT '{}',
  created_at TEXT NOT NULL);
CREATE INDEX ix_ctx_ca ON context(created_at);
CREATE TABLE threads (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, importance INTEGER DEFAULT 3,
  emotional INTEGER DEFAULT 3, recurrence INTEGER DEFAULT 3, unresolved INTEGER DEFAULT 3, weight REAL,
  status TEXT DEFAULT 'open', created_at TEXT NOT NULL, explored_at TEXT);
CREATE TABLE self_concept (id INTEGER PRIMARY KEY AUTOINCREMENT, field TEXT UNIQUE NOT NULL, content TEXT NOT NULL,
  updated_at TEXT NOT NULL);
CREATE TABLE topic_clusters (id INTEGER PRIMARY KEY AUTOINCREMENT, cluster_name TEXT UNIQUE, noun_freq INTEGER,
  narrative_ids TEXT, last_active TEXT, avg_weight REAL);
CREATE TABLE graph_nodes (entity TEXT PRIMARY KEY, mention_count INTEGER, first_seen TEXT, last_seen TEXT);
CREATE VIRTUAL TABLE context_fts USING fts5(content, tokenize='trigram');
CREATE TRIGGER ctx_ai AFTER INSERT ON context BEGIN INSERT INTO context_fts(rowid, content) VALUES (new.id, new.content); END;
CREATE VIRTUAL TABLE narratives_fts USING fts5(gesture, context_layer, cognition_direction, tags, content='narratives', content_rowid='id', tokenize='trigram');
CREATE TRIGGER nar_ai AFTER INSERT ON narratives BEGIN
  INSERT INTO narratives_fts(rowid, gesture, context_layer, cognition_direction, tags) VALUES (new.id, new.gesture, new.context_layer, new.cognition_direction, new.tags);
END;
`;

/** Python's json.dumps default: non-ASCII as \\uXXXX (SEEDS T-3). */
function pyJson(v: unknown): string {
  return JSON.stringify(v).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'tidepool-tideline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function buildFixture(): string {
  const path = join(dir, 'mcp_memory.db');
  const db = new Database(path);
  db.exec(SCHEMA);
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
    '[1, 2]',
    'A=判断+执行; 阿明=审查',
    0.65,
    4,
    3,
    3,
    4,
  );
  nar.run(
    'provider note',
    'general',
    '["english"]',
    null,
    '2025-08-14T09:30:00Z',
    'provider note',
    null,
    null,
    null,
    null,
    '["3", "4"]',
    null,
    0.5,
    3,
    3,
    3,
    3,
  );
  nar.run(
    'script note',
    'self_reflection',
    '[]',
    null,
    '2025-08-14T17:45:00+08:00',
    'script note',
    null,
    null,
    null,
    '[]',
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  );
  nar.run(
    'iso note',
    'dream',
    "['梦', 'dream']",
    null,
    '2025-08-14T09:50:00.123456',
    'iso note',
    null,
    null,
    null,
    null,
    '',
    null,
    0.2,
    1,
    2,
    2,
    2,
  );
  const ctx = db.prepare('INSERT INTO context (content, embedding, meta, created_at) VALUES (?, ?, ?, ?)');
  ctx.run('[USER] 同步服务又挂了', null, pyJson({ session: 'sess-1' }), '2025-08-14T09:10:00Z');
  ctx.run('[ASSISTANT] 我去看看连接池', '[0.5, 0.5]', '{"session": "sess-1"}', '2025-08-14T09:11:00Z');
  ctx.run(
    '周报：本周三次会话',
    null,
    '{"source": "session-scan", "iso_year": 2025, "iso_week": 33}',
    '2025-08-11T23:59:00',
  );
  ctx.run('[USER] rescued', null, '{"session": "sess-2", "rescued": true, "role": "user"}', 'not a time');
  db.prepare('INSERT INTO profiles (entity, ptype, content, updated_at) VALUES (?, ?, ?, ?)').run(
    '阿明',
    'impression',
    '总是负责审查',
    '2025-08-10 08:00:00',
  );
  db.prepare('INSERT INTO profiles (entity, ptype, content, updated_at) VALUES (?, ?, ?, ?)').run(
    'self',
    'self',
    'I like quiet mornings',
    '2025-08-11T08:00:00Z',
  );
  db.prepare('INSERT INTO snapshots (content, created_at) VALUES (?, ?)').run(
    '有点累，但专注',
    '2025-08-14 22:00:00',
  );
  db.prepare(
    'INSERT INTO threads (content, weight, status, created_at, explored_at) VALUES (?, ?, ?, ?, ?)',
  ).run('连接池为什么总是不够？', 0.55, 'explored', '2025-08-14 09:40:00', '2025-08-15T01:00:00Z');
  db.prepare('INSERT INTO threads (content, weight, created_at) VALUES (?, ?, ?)').run(
    'open question',
    0.5,
    '2025-08-15 02:00:00',
  );
  db.prepare('INSERT INTO self_concept (field, content, updated_at) VALUES (?, ?, ?)').run(
    'terrain',
    '擅长排查',
    '2025-08-13 10:00:00',
  );
  db.prepare('INSERT INTO self_concept (field, content, updated_at) VALUES (?, ?, ?)').run(
    'fact',
    'I am an agent',
    '2025-08-12 10:00:00',
  );
  db.prepare(
    'INSERT INTO topic_clusters (cluster_name, noun_freq, narrative_ids, last_active, avg_weight) VALUES (?, ?, ?, ?, ?)',
  ).run('连接池', 3, '[1, 2, 3]', '2025-08-14T17:45:00+08:00', 0.4833);
  db.close();
  return path;
}

describe('readTidelineDb', () => {
  const path = buildFixture();
  const r = readTidelineDb(path);

  it('reads every narrative field with decoded tags, source links as numbers and epoch-ms times of every writer', () => {
    expect(r.narratives).toHaveLength(4);
    expect(r.narratives[0]).toEqual({
      id: 1,
      content: '我第三次调试同步服务 | 深夜 | 连接池耗尽',
      ntype: 'moment',
      tags: ['调试', '数据库'],
      gesture: '我第三次调试同步服务',
      context: '深夜',
      moment: '连接池耗尽',
      cognitionDirection: '下次先查连接池',
      relatedEntities: ['阿明'],
      sourceLinks: [1, 2],
      entitiesRole: 'A=判断+执行; 阿明=审查',
      weight: 0.65,
      importance: 4,
      emotional: 3,
      recurrence: 3,
      unresolved: 4,
      embedding: [0.1, -0.2, 0.3],
      createdAt: Date.UTC(2025, 7, 14, 9, 20),
      extra: {},
    });
    expect(r.narratives.map((n) => n.createdAt)).toEqual([
      Date.UTC(2025, 7, 14, 9, 20),
      Date.UTC(2025, 7, 14, 9, 30),
      Date.UTC(2025, 7, 14, 9, 45), // 17:45 at +08:00
      Date.UTC(2025, 7, 14, 9, 50, 0, 123),
    ]);
    expect(r.narratives[1]!.sourceLinks).toEqual([3, 4]);
    expect(r.narratives[2]).toMatchObject({
      tags: [],
      sourceLinks: [],
      weight: null,
      importance: null,
      relatedEntities: [],
    });
    expect(r.narratives[3]!.tags).toEqual(['梦', 'dream']);
  });

  it('reads context rows with role from the [USER]/[ASSISTANT] prefix, session and meta, and warns on bad times', () => {
    expect(r.context.map((c) => [c.id, c.role, c.session, c.createdAt])).toEqual([
      [1, 'user', 'sess-1', Date.UTC(2025, 7, 14, 9, 10)],
      [2, 'assistant', 'sess-1', Date.UTC(2025, 7, 14, 9, 11)],
      [3, null, null, Date.UTC(2025, 7, 11, 23, 59)],
      [4, 'user', 'sess-2', null],
    ]);
    expect(r.context[2]!.meta).toEqual({ source: 'session-scan', iso_year: 2025, iso_week: 33 });
    expect(r.context[1]!.embedding).toEqual([0.5, 0.5]);
    expect(r.warnings).toEqual(['context 4 created_at: "not a time"']);
  });

  it('reads profiles, self-concept, snapshots, threads and topic clusters', () => {
    expect(r.profiles.map((p) => [p.entity, p.ptype, p.content, p.updatedAt])).toEqual([
      ['阿明', 'impression', '总是负责审查', Date.UTC(2025, 7, 10, 8)],
      ['self', 'self', 'I like quiet mornings', Date.UTC(2025, 7, 11, 8)],
    ]);
    expect(r.selfConcept.map((s) => [s.field, s.content, s.extra])).toEqual([
      ['fact', 'I am an agent', { id: 2 }],
      ['terrain', '擅长排查', { id: 1 }],
    ]);
    expect(r.snapshots).toEqual([
      { id: 1, content: '有点累，但专注', createdAt: Date.UTC(2025, 7, 14, 22), extra: {} },
    ]);
    expect(r.threads[0]).toEqual({
      id: 1,
      content: '连接池为什么总是不够？',
      importance: 3,
      emotional: 3,
      recurrence: 3,
      unresolved: 3,
      weight: 0.55,
      status: 'explored',
      createdAt: Date.UTC(2025, 7, 14, 9, 40),
      exploredAt: Date.UTC(2025, 7, 15, 1),
      extra: {},
    });
    expect(r.threads[1]).toMatchObject({ status: 'open', exploredAt: null });
    expect(r.topicClusters).toEqual([
      {
        name: '连接池',
        size: 3,
        narrativeIds: [1, 2, 3],
        lastActive: Date.UTC(2025, 7, 14, 9, 45),
        avgWeight: 0.4833,
        extra: { id: 1 },
      },
    ]);
    expect(r.missingTables).toEqual([]);
  });

  it('turns context rows into idempotent episodes without the role prefix', () => {
    const turns = tidelineContextTurns(r.context, 'mcp_memory.db');
    expect(turns[0]).toEqual({
      role: 'user',
      content: '同步服务又挂了',
      ref: 'tideline:mcp_memory.db:context:1',
      session: 'sess-1',
      at: Date.UTC(2025, 7, 14, 9, 10),
      meta: { tidelineId: 1, tideline: { session: 'sess-1' } },
    });
    expect(turns[2]).toMatchObject({
      role: 'assistant',
      content: '周报：本周三次会话',
      meta: { kind: 'note' },
    });
    expect(turns[3]).not.toHaveProperty('at');
    expect(tidelineContextTurns(readTidelineDb(path).context, 'mcp_memory.db')).toEqual(turns);
  });

  it('opens the database read-only and leaves it unchanged', () => {
    const before = readTidelineDb(path);
    expect(before).toEqual(r);
    const db = new Database(path, { readonly: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM narratives_fts').get() as { n: number }).n).toBe(4);
    db.close();
  });

  it('reports the tables an older database lacks', () => {
    const old = join(dir, 'old.db');
    const db = new Database(old);
    db.exec(
      "CREATE TABLE narratives (id INTEGER PRIMARY KEY, content TEXT NOT NULL, tags TEXT DEFAULT '[]', created_at TEXT NOT NULL, mood TEXT)",
    );
    db.prepare('INSERT INTO narratives (content, tags, created_at, mood) VALUES (?, ?, ?, ?)').run(
      'old',
      '"[\\"a\\"]"',
      '2024-01-01',
      'calm',
    );
    db.close();
    const o = readTidelineDb(old);
    expect(o.missingTables).toEqual([
      'context',
      'profiles',
      'self_concept',
      'snapshots',
      'threads',
      'topic_clusters',
    ]);
    expect(o.narratives[0]).toMatchObject({
      tags: ['a'],
      createdAt: Date.UTC(2024, 0, 1),
      ntype: 'general',
      extra: { mood: 'calm' },
    });
  });

  it('refuses a path that does not exist instead of creating a database', () => {
    expect(() => readTidelineDb(join(dir, 'missing.db'))).toThrow();
  });
});

describe('parseTidelineTime and decodeList', () => {
  it('reads each Tideline timestamp format', () => {
    const t = Date.UTC(2025, 7, 14, 9, 20, 5);
    expect(parseTidelineTime('2025-08-14 09:20:05')).toBe(t);
    expect(parseTidelineTime('2025-08-14T09:20:05Z')).toBe(t);
    expect(parseTidelineTime('2025-08-14T09:20:05.250000')).toBe(t + 250);
    expect(parseTidelineTime('2025-08-14T17:20:05+08:00')).toBe(t);
    expect(parseTidelineTime('2025-08-14T17:20:05+0800')).toBe(t);
    expect(parseTidelineTime('2025-08-14T04:20:05-05:00')).toBe(t);
    expect(parseTidelineTime('2025-08-14T17:20:05', 480)).toBe(t);
    expect(parseTidelineTime(t / 1000)).toBe(t);
    expect(parseTidelineTime('')).toBeNull();
    expect(parseTidelineTime('14/08/2025')).toBeNull();
  });

  it('decodes escaped, doubly encoded, Python-style and comma lists', () => {
    expect(decodeList('["\\u8c03\\u8bd5", "db"]')).toEqual(['调试', 'db']);
    expect(decodeList(JSON.stringify(JSON.stringify(['a', 'b'])))).toEqual(['a', 'b']);
    expect(decodeList("['梦', 'x']")).toEqual(['梦', 'x']);
    expect(decodeList('a, b，c')).toEqual(['a', 'b', 'c']);
    expect(decodeList(null)).toEqual([]);
  });
});
