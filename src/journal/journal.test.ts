import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import {
  clockAt,
  copyFixture,
  dayFiles,
  snapshotTree,
  tempWorkspace,
} from '../../test/fixtures/journal/fixture-workspace.js';
import { AGENTS_HINT_BEGIN } from './agents-hint.js';
import { Journal } from './journal.js';
import { MemoryJournalHost } from './memory-journal-host.js';
import { MEMORY_SKELETON, TODO_SKELETON } from './memory-skeleton.js';
import { DEFAULT_TIDE_CONFIG } from './tide-config.js';

const FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/journal/tide',
);
const sha = (p: string) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const mem = (root: string, rel: string) => path.join(root, 'memory', rel);
const usage = (root: string) => JSON.parse(fs.readFileSync(mem(root, '.usage.json'), 'utf8')).files;

function setup(day = '2026-11-05') {
  const root = copyFixture('tide');
  const host = new MemoryJournalHost();
  const clock = clockAt(day);
  return { root, host, clock, journal: new Journal({ host, clock }) };
}

describe('Journal: first use', () => {
  it('lays out memory/ with the default config, annotated skeletons, usage file and AGENTS.md hint', async () => {
    const root = tempWorkspace();
    const host = new MemoryJournalHost();
    const journal = new Journal({ host, clock: clockAt('2026-11-05') });
    await journal.stats({ root });
    expect(JSON.parse(fs.readFileSync(mem(root, '.tide.json'), 'utf8'))).toEqual(DEFAULT_TIDE_CONFIG);
    expect(fs.readFileSync(mem(root, 'MEMORY.md'), 'utf8')).toBe(MEMORY_SKELETON);
    expect(MEMORY_SKELETON).toMatch(/Shorter is better/);
    expect(MEMORY_SKELETON).toMatch(/Cold archive: `archive\/cold\/`/);
    expect(fs.readFileSync(mem(root, 'TODO.md'), 'utf8')).toBe(TODO_SKELETON);
    expect(JSON.parse(fs.readFileSync(mem(root, '.usage.json'), 'utf8'))).toEqual({ version: 1, files: {} });
    expect(
      fs.statSync(mem(root, 'archive/hot')).isDirectory() &&
        fs.statSync(mem(root, 'archive/cold')).isDirectory(),
    ).toBe(true);
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toContain(AGENTS_HINT_BEGIN);
    expect(await host.listWorkspaces()).toEqual([fs.realpathSync(root)]);
  });

  it('never overwrites an existing file', async () => {
    const root = tempWorkspace();
    fs.mkdirSync(path.join(root, 'memory'));
    fs.writeFileSync(mem(root, 'MEMORY.md'), 'mine\n');
    fs.writeFileSync(mem(root, '.tide.json'), '{"hotKeepDays": 3}\n');
    const journal = new Journal({ host: new MemoryJournalHost(), clock: clockAt('2026-11-05') });
    await journal.stats({ root });
    const cfg = await journal.config({ root });
    expect(cfg.config.hotKeepDays).toBe(3);
    expect(fs.readFileSync(mem(root, 'MEMORY.md'), 'utf8')).toBe('mine\n');
    expect(fs.readFileSync(mem(root, '.tide.json'), 'utf8')).toBe('{"hotKeepDays": 3}\n');
    expect(fs.existsSync(mem(root, 'TODO.md'))).toBe(true);
  });
});

describe('Journal: tend', () => {
  it('dry run reports the plan and changes nothing on disk', async () => {
    const { root, journal, host } = setup();
    const before = snapshotTree(root);
    const r = await journal.tend({ root, dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.migrated).toEqual(['2026-10-20']);
    expect(r.moves.map((m) => [m.date, m.from, m.to])).toEqual([
      ['2026-10-20', 'legacy', 'cold'],
      ['2026-10-28', 'hot', 'cold'],
    ]);
    expect(snapshotTree(root)).toEqual(before);
    expect(host.state.tendState.size).toBe(0);
  });

  it('migrates legacy days, sinks unused old days byte-identical, keeps the boundary day hot, writes both indexes', async () => {
    const { root, journal, host } = setup();
    const r = await journal.tend({ root });
    expect(r.moves.map((m) => [m.date, m.to, m.outcome])).toEqual([
      ['2026-10-20', 'cold', 'moved'],
      ['2026-10-28', 'cold', 'moved'],
    ]);
    expect(dayFiles(root)).toEqual({
      hot: ['2026-10-29.md', '2026-11-04.md', '2026-11-05.md'],
      cold: ['2026-08-15.md', '2026-09-30.md', '2026-10-20.md', '2026-10-28.md'],
      legacy: [],
    });
    expect(sha(mem(root, 'archive/cold/2026-10-20.md'))).toBe(
      sha(path.join(FIXTURE, 'memory/2026-10-20.md')),
    );
    expect(sha(mem(root, 'archive/cold/2026-10-28.md'))).toBe(
      sha(path.join(FIXTURE, 'memory/archive/hot/2026-10-28.md')),
    );
    const hotIndex = fs.readFileSync(mem(root, 'archive/hot/INDEX.md'), 'utf8');
    expect(hotIndex).toContain(
      '- [2026-11-05](2026-11-05.md) — 09:05 planned the day; 14:30 wrote the tide tests',
    );
    expect(hotIndex).not.toContain('2026-10-28');
    expect(fs.readFileSync(mem(root, 'archive/cold/INDEX.md'), 'utf8')).toContain('  - 09:10 修好了同步');
    const real = fs.realpathSync(root);
    expect(host.state.tendState.get(real)).toBe('2026-11-05');
    const sections = host.state.sections.get(real)!;
    expect(sections.find((s) => s.file === 'MEMORY.md' && s.heading === 'Pitfalls')?.text).toContain('flock');
    expect(sections.find((s) => s.date === '2026-09-30' && s.time === '09:10')).toMatchObject({
      tier: 'cold',
      title: '修好了同步',
      occurredAt: Date.parse('2026-09-30T09:10:00Z'),
      key: '2026-09-30.md#【09:10 修好了同步】',
    });
    expect((await journal.tend({ root })).moves).toEqual([]);
  });

  it('pins an old day looked up on three days, and floats a cold day looked up on five days back', async () => {
    const { root, journal, clock } = setup('2026-11-01');
    for (let d = 0; d < 5; d++) {
      await journal.search({ root, query: '竞态', scope: 'all' }); // 2026-09-30, cold
      await journal.read({ root, date: '2026-10-28' }); // hot, 4 days old on the first read
      await journal.read({ root, date: '2026-10-28' }); // same day: not counted again
      clock.advance(DAY_MS);
    }
    expect(usage(root)['2026-09-30.md']).toMatchObject({ hits: 5, total: 5 });
    expect(usage(root)['2026-10-28.md']).toMatchObject({ hits: 5 });
    clock.set(Date.parse('2026-11-06T12:00:00Z'));
    const r = await journal.tend({ root });
    expect(r.pinned).toEqual([
      { date: '2026-09-30', reason: 'cold_hits', hits: 5 },
      { date: '2026-10-28', reason: 'hot_hits', hits: 5 },
    ]);
    expect(dayFiles(root).hot).toContain('2026-09-30.md');
    expect(dayFiles(root).hot).toContain('2026-10-28.md');
    expect(fs.readFileSync(mem(root, 'archive/hot/INDEX.md'), 'utf8')).toContain(
      '[2026-09-30](2026-09-30.md) (pinned)',
    );
  });

  it('hands the cold overflow to the archive database and restore-day brings a day back, pinned', async () => {
    const { root, journal, host } = setup();
    await journal.config({ root, patch: { coldMaxFiles: 2 } });
    const r = await journal.tend({ root });
    expect(r.archived).toEqual([
      { date: '2026-08-15', from: 'cold' },
      { date: '2026-09-30', from: 'cold' },
    ]);
    expect(dayFiles(root).cold).toEqual(['2026-10-20.md', '2026-10-28.md']);
    const real = fs.realpathSync(root);
    expect(await host.listArchivedDays(real)).toEqual(['2026-08-15', '2026-09-30']);
    expect(await host.restoreDay(real, '2026-09-30')).toBe(
      fs.readFileSync(path.join(FIXTURE, 'memory/archive/cold/2026-09-30.md'), 'utf8'),
    );

    expect(await journal.restoreDay({ root, date: '2026-09-30' })).toMatchObject({
      kind: 'restored',
      file: 'archive/hot/2026-09-30.md',
    });
    expect(sha(mem(root, 'archive/hot/2026-09-30.md'))).toBe(
      sha(path.join(FIXTURE, 'memory/archive/cold/2026-09-30.md')),
    );
    expect(usage(root)['2026-09-30.md']).toMatchObject({ pinned: '2026-11-05', hits: 0 });
    expect(await journal.restoreDay({ root, date: '2026-09-30' })).toMatchObject({
      kind: 'exists',
      location: 'hot',
    });
    expect(await journal.restoreDay({ root, date: '2026-01-01' })).toEqual({
      kind: 'not_found',
      date: '2026-01-01',
    });
    expect((await journal.tend({ root })).moves).toEqual([]);
  });

  it('sinks the oldest unpinned hot days over hotMaxFiles', async () => {
    const { root, journal } = setup();
    await journal.config({ root, patch: { hotMaxFiles: 2 } });
    const r = await journal.tend({ root });
    expect(r.moves.filter((m) => m.reason === 'over_hot_max').map((m) => m.date)).toEqual(['2026-10-29']);
    expect(dayFiles(root).hot).toEqual(['2026-11-04.md', '2026-11-05.md']);
  });
});

describe('Journal: add, read, search', () => {
  it('appends a timed section to today, creating the day in hot', async () => {
    const { root, journal, clock } = setup();
    clock.set(Date.parse('2026-11-06T14:30:00Z'));
    const r = await journal.add({ root, heading: 'wrote the journal tests', content: 'All green.\n' });
    expect(r).toMatchObject({
      kind: 'added',
      date: '2026-11-06',
      location: 'hot',
      line: 3,
      createdFile: true,
    });
    expect(fs.readFileSync(mem(root, 'archive/hot/2026-11-06.md'), 'utf8')).toBe(
      '# 2026-11-06\n\n## 【14:30 wrote the journal tests】\nAll green.\n',
    );
    expect(
      await journal.add({ root, heading: 'wrote the journal tests', content: 'All green.' }),
    ).toMatchObject({ kind: 'duplicate', line: 3 });
    expect(fs.readFileSync(mem(root, 'archive/hot/INDEX.md'), 'utf8')).toContain(
      '[2026-11-06](2026-11-06.md) — 14:30 wrote the journal tests',
    );
  });

  it('keeps a time given in the heading and appends to a day that lies in cold', async () => {
    const { root, journal } = setup();
    const before = fs.readFileSync(mem(root, 'archive/cold/2026-09-30.md'), 'utf8');
    const r = await journal.add({
      root,
      date: '2026-09-30',
      heading: '【18:00 补记】',
      content: '后来又确认了一次。',
    });
    expect(r).toMatchObject({ kind: 'added', location: 'cold', file: 'archive/cold/2026-09-30.md' });
    const after = fs.readFileSync(mem(root, 'archive/cold/2026-09-30.md'), 'utf8');
    expect(after).toBe(`${before}\n## 【18:00 补记】\n后来又确认了一次。\n`);
    await journal.add({ root, date: '2026-11-05', time: '07:05', heading: 'early', content: 'x' });
    expect(fs.readFileSync(mem(root, 'archive/hot/2026-11-05.md'), 'utf8')).toMatch(
      /## 【07:05 early】\nx\n$/,
    );
  });

  it('refuses credentials and leaves the file untouched', async () => {
    const { root, journal } = setup();
    const before = snapshotTree(path.join(root, 'memory'));
    for (const content of [
      'token: ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'db password = hunter2hunter2',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----',
    ]) {
      await expect(journal.add({ root, heading: 'deploy', content })).rejects.toMatchObject({
        code: 'secret_refused',
      });
    }
    expect(snapshotTree(path.join(root, 'memory'))).toEqual(before);
    const strict = new Journal({
      host: new MemoryJournalHost(),
      clock: clockAt('2026-11-05'),
      detectSecrets: (t) => (t.includes('SECRET') ? [{ kind: 'custom' }] : []),
    });
    await expect(strict.add({ root, heading: 'x', content: 'the SECRET' })).rejects.toMatchObject({
      code: 'secret_refused',
      details: { kinds: ['custom'] },
    });
  });

  it('refuses bad input', async () => {
    const { root, journal } = setup();
    await expect(journal.add({ root, heading: 'x', content: 'a\n## split' })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'content',
    });
    await expect(journal.add({ root, heading: 'x', content: 'a', date: '2026-02-30' })).rejects.toMatchObject(
      { code: 'invalid_input', field: 'date' },
    );
    await expect(journal.add({ root, heading: 'x', content: 'a', time: '25:00' })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'time',
    });
    await expect(journal.add({ root, heading: 'x', content: ' \n ' })).rejects.toMatchObject({
      field: 'content',
    });
    await expect(journal.search({ root, query: '  ' })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'query',
    });
  });

  it('reads a day from any tier, defaulting to today, and counts it once per day', async () => {
    const { root, journal, clock } = setup();
    const today = await journal.read({ root });
    expect(today).toMatchObject({ kind: 'found', date: '2026-11-05', location: 'hot', counted: true });
    expect(today.kind === 'found' && today.sections.map((s) => s.heading)).toEqual([
      '【09:05 planned the day】',
      '【14:30 wrote the tide tests】',
    ]);
    expect(await journal.read({ root })).toMatchObject({ counted: false });
    expect(await journal.read({ root, date: '2026-08-15' })).toMatchObject({
      kind: 'found',
      location: 'cold',
    });
    expect(await journal.read({ root, date: '2026-10-20' })).toMatchObject({
      kind: 'found',
      location: 'legacy',
    });
    expect(await journal.read({ root, date: '2026-01-01' })).toEqual({ kind: 'missing', date: '2026-01-01' });
    clock.advance(DAY_MS);
    await journal.read({ root, date: '2026-11-05' });
    expect(usage(root)['2026-11-05.md']).toMatchObject({ hits: 2, total: 2, lastHit: '2026-11-06' });
  });

  it('searches hot by default and cold with scope all, in English and Chinese, counting each file returned', async () => {
    const { root, journal } = setup();
    const hot = await journal.search({ root, query: '竞态' });
    expect(hot.results).toEqual([]);
    expect(JSON.stringify(hot)).not.toContain('竞态');
    const all = await journal.search({ root, query: '竞态', scope: 'all' });
    expect(all.results.map((h) => h.file)).toEqual(['archive/cold/2026-09-30.md']);
    expect(JSON.stringify(all)).toContain('终于找到竞态。');
    expect(all.counted).toEqual(['2026-09-30.md']);
    const en = await journal.search({ root, query: 'staging' });
    expect(en.results.map((h) => [h.file, h.hits])).toEqual([
      ['archive/hot/2026-10-29.md', 2],
      ['MEMORY.md', 1],
    ]);
    expect(en.results[0]!.snippets[0]!.lines.length).toBeLessThanOrEqual(
      1 + 2 * DEFAULT_TIDE_CONFIG.searchContext,
    );
    const legacy = await journal.search({ root, query: '"old layout"' });
    expect(legacy.results.map((h) => [h.file, h.tier])).toEqual([['2026-10-20.md', 'legacy']]);
    expect((await journal.search({ root, query: '同步', scope: 'all', limit: 2 })).results).toHaveLength(2);
    expect(usage(root)['MEMORY.md']).toMatchObject({ hits: 1 });
  });
});

describe('Journal: index, stats, config, workspaces', () => {
  it('picks up hand edits on index and keeps the AGENTS.md hint in sync with agentsHint', async () => {
    const { root, journal, host } = setup();
    await journal.index({ root });
    fs.appendFileSync(
      mem(root, 'archive/hot/2026-11-04.md'),
      '\n## 【20:00 hand-written note】\nEdited in a text editor.\n',
    );
    expect((await journal.lint({ root })).counts.stale_index).toBe(1);
    const r = await journal.index({ root });
    expect(r).toMatchObject({ hot: 'written', cold: 'unchanged', hint: 'unchanged' });
    expect(host.state.sections.get(fs.realpathSync(root))!.some((s) => s.title === 'hand-written note')).toBe(
      true,
    );
    expect((await journal.lint({ root })).counts.stale_index).toBeUndefined();
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toContain(AGENTS_HINT_BEGIN);
    expect((await journal.config({ root, patch: { agentsHint: false } })).hint).toBe('deleted');
    expect(fs.existsSync(path.join(root, 'AGENTS.md'))).toBe(false);
  });

  it('reports days per tier, lookups per file and pins', async () => {
    const { root, journal } = setup();
    await journal.read({ root, date: '2026-08-15' });
    const s = await journal.stats({ root });
    expect(s.tiers).toEqual({ hot: 4, cold: 2, legacy: 1 });
    expect(s.files.find((f) => f.date === '2026-08-15')).toMatchObject({
      location: 'cold',
      hits: 1,
      totalHits: 1,
      lastHit: '2026-11-05',
      ageDays: 82,
    });
    expect(s.pins).toBe(0);
    expect(s.files.slice(0, 2).map((f) => f.file)).toEqual(['MEMORY.md', 'TODO.md']);
  });

  it('patches, validates and resets .tide.json', async () => {
    const { root, journal } = setup();
    expect((await journal.config({ root, patch: { searchLimit: 3 } })).changed).toBe(true);
    expect(JSON.parse(fs.readFileSync(mem(root, '.tide.json'), 'utf8')).searchLimit).toBe(3);
    await expect(journal.config({ root, patch: { searchLimit: 0 } })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(journal.config({ root, patch: { nope: 1 } as never })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect((await journal.config({ root, reset: true })).config).toEqual(DEFAULT_TIDE_CONFIG);
  });

  it('lists known workspaces without creating memory/ anywhere', async () => {
    const { root, journal, host } = setup();
    await journal.stats({ root });
    const bare = tempWorkspace();
    await host.registerWorkspace(bare);
    const gone = path.join(tempWorkspace(), 'deleted');
    await host.registerWorkspace(gone);
    const { workspaces } = await journal.workspaces();
    expect(workspaces.map((w) => w.state).sort()).toEqual(['missing_root', 'no_memory', 'ready']);
    expect(fs.existsSync(path.join(bare, 'memory'))).toBe(false);
  });

  it('refuses a workspace the allowRoot policy rejects, before creating anything', async () => {
    const root = tempWorkspace();
    const allowed = fs.realpathSync(tempWorkspace());
    const journal = new Journal({
      host: new MemoryJournalHost(),
      clock: clockAt('2026-11-05'),
      allowRoot: (r) => r === allowed,
    });
    await expect(journal.stats({ root })).rejects.toMatchObject({ code: 'forbidden', field: 'root' });
    expect(fs.existsSync(path.join(root, 'memory'))).toBe(false);
    await expect(journal.stats({ root: allowed })).resolves.toMatchObject({ root: allowed });
  });

  it('refuses a root that is not an existing directory and dates that are paths', async () => {
    const { root, journal } = setup();
    await expect(journal.read({ root: path.join(root, 'nope') })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'root',
    });
    for (const date of ['../../etc/passwd', '/etc/passwd', '2026-11-05/../../x', '2026-11-5']) {
      await expect(journal.read({ root, date })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'date',
      });
      await expect(journal.restoreDay({ root, date })).rejects.toMatchObject({ code: 'invalid_input' });
    }
  });
});
