/** `tidepool script` as a user runs it: each job's --json shape and summary, `all`, bad job names. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import { runCli } from './helpers/run-cli.js';

let dir: string;
let db: string;
const tp = (...args: string[]) => runCli([...args, '--db', db]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-script-cli-'));
  db = join(dir, 'm.db');
  // The memory is filled through the library (one process); the commands under test run the real binary.
  const m = await openMemory({ path: db, embedder: 'none', warn: () => {} });
  for (let i = 1; i <= 12; i++) {
    const g = `第${i}次调试同步服务${i <= 3 ? '，数据库连接池耗尽' : ''}`;
    await m.write({
      gesture: g,
      tags: ['调试'],
      entities_role: i % 4 === 0 ? 'A=执行; 阿明=审查' : 'A=执行',
      at: Date.now() - (20 - i) * 60_000,
    });
  }
  await m.record({
    turns: ['a', 'b', 'c'].map((c) => ({ role: 'user' as const, content: `turn ${c}`, session: 's' })),
  });
  await m.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tidepool script', () => {
  it('topics --json lists kept clusters and counts the dropped words without naming them', async () => {
    const r = await tp('script', 'topics', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      job: string;
      clusters: Array<{ name: string; size: number }>;
      dropped: { generic: number };
    };
    expect(doc.job).toBe('topics');
    expect(doc.clusters).toContainEqual(expect.objectContaining({ name: '数据库', size: 3 }));
    expect(doc.dropped.generic).toBeGreaterThan(0);
    expect(r.stdout).not.toContain('"调试"');
    const human = await tp('script', 'topics');
    expect(human.stdout).toMatch(/^topics: \d+ clusters from 12 narratives/);
  });

  it('scan prints the markdown report, --json the tracks; soft-clusters without vectors says why and succeeds', async () => {
    const md = await tp('script', 'scan');
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('# Layer 0 scan');
    expect(md.stdout).toContain('Track A: 12 narratives without source_links');
    const json = JSON.parse((await tp('script', 'scan', '--json')).stdout) as {
      scan: { track_b: { chunks: unknown[] } };
    };
    expect(json.scan.track_b.chunks).toHaveLength(1);
    const soft = await tp('script', 'soft-clusters');
    expect(soft.code).toBe(0);
    expect(soft.stdout).toMatch(/soft-clusters: skipped: no narrative vectors/);
  });

  it('entity-graph prints the top entities; all runs every job and --json summarises the scan', async () => {
    const g = await tp('script', 'entity-graph');
    expect(g.stdout).toMatch(/entity-graph: 2 entities, 3 edges, 1 pairs from 12 narratives/);
    const all = await tp('script', 'all', '--json');
    expect(all.code).toBe(0);
    const doc = JSON.parse(all.stdout) as {
      ok: boolean;
      jobs: Array<{ job: string; ok: boolean; result: { track_b?: { chunks: unknown } } }>;
    };
    expect(doc.ok).toBe(true);
    expect(doc.jobs.map((j) => j.job)).toEqual([
      'topics',
      'soft-clusters',
      'attention',
      'entity-graph',
      'recurrence',
      'normalize',
      'scan',
      'backfill-links',
    ]);
    expect(doc.jobs.find((j) => j.job === 'scan')!.result.track_b!.chunks).toBe(1);
    const human = await tp('script', 'all');
    expect(human.stdout.trim().split('\n').at(-1)).toMatch(/^all jobs done in \d+ ms$/);
  });

  it('refuses an unknown job with exit code 2 and the list of jobs', async () => {
    const r = await tp('script', 'clusters');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown job "clusters"; jobs: topics, soft-clusters, .*backfill-links, all/);
    expect((await tp('script', 'scan', '--since', 'yesterday')).code).toBe(2);
  });
});
