/** The journal over the real store: sections as recallable episodes, hand edits, tier moves, the day archive, confinement. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Episode } from '../src/core/types.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

let mem: TempMemory | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await mem?.cleanup();
  mem = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-journal-ws-')));
  dirs.push(d);
  return d;
}

async function journalEpisodes(m: TempMemory): Promise<Episode[]> {
  const page = await m.memory.timeline({ limit: 200, order: 'asc' });
  return page.items.filter((e) => e.kind === 'journal');
}

describe('journal sections in core recall', () => {
  it('stores each section as a durable journal episode that recall finds, a 2-character Chinese word included', async () => {
    mem = await tempMemory();
    const root = workspace();
    const journal = mem.memory.journal();
    await journal.add({
      root,
      date: '2026-10-30',
      time: '09:10',
      heading: '修好了同步',
      content: '调试了一上午，终于找到竞态。',
    });
    await journal.add({
      root,
      date: '2026-10-30',
      time: '14:30',
      heading: 'wrote the tide tests',
      content: 'All green.',
    });

    const hits = await mem.memory.recall({ query: '竞态' });
    expect(hits[0]?.text).toContain('终于找到竞态');
    const [race, tests] = await journalEpisodes(mem);
    expect(race).toMatchObject({
      kind: 'journal',
      source: 'journal',
      durable: true,
      ref: `journal:${root}:2026-10-30.md#【09:10 修好了同步】`,
      occurredAt: Date.UTC(2026, 9, 30, 9, 10),
      meta: {
        root,
        file: 'archive/hot/2026-10-30.md',
        heading: '【09:10 修好了同步】',
        tier: 'hot',
        date: '2026-10-30',
      },
    });
    expect(tests?.content).toBe('【14:30 wrote the tide tests】\nAll green.');
    expect((await mem.memory.recall({ query: 'tide tests' }))[0]?.text).toContain('All green.');
  });

  it('picks up edits by hand on the next index and keeps the episode of an untouched section', async () => {
    mem = await tempMemory();
    const root = workspace();
    const journal = mem.memory.journal();
    await journal.add({
      root,
      date: '2026-10-30',
      time: '09:10',
      heading: '修好了同步',
      content: '调试了一上午，终于找到竞态。',
    });
    await journal.add({
      root,
      date: '2026-10-30',
      time: '14:30',
      heading: 'wrote the tide tests',
      content: 'All green.',
    });
    const before = await journalEpisodes(mem);

    const file = join(root, 'memory/archive/hot/2026-10-30.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('All green.', 'Two flaky tests quarantined.'));
    mem.clock.advance(60_000);
    await journal.index({ root });

    const after = await journalEpisodes(mem);
    expect(after).toHaveLength(2);
    expect(after[0]).toEqual(before[0]);
    expect(after[1]!.createdAt).toBe(mem.clock.now());
    expect(after[1]!.content).toContain('Two flaky tests quarantined.');
    expect((await mem.memory.recall({ query: 'quarantined' }))[0]?.text).toContain('flaky');
    expect((await mem.memory.recall({ query: 'green' })).some((h) => h.text.includes('All green'))).toBe(
      false,
    );

    // A section deleted by hand leaves recall too.
    writeFileSync(file, '# 2026-10-30\n\n## 【09:10 修好了同步】\n调试了一上午，终于找到竞态。\n');
    await journal.index({ root });
    expect((await journalEpisodes(mem)).map((e) => e.id)).toEqual([before[0]!.id]);
  });

  it('redacts a credential written into a day file by hand before it reaches the database', async () => {
    mem = await tempMemory();
    const root = workspace();
    mkdirSync(join(root, 'memory'));
    writeFileSync(
      join(root, 'memory/2026-10-29.md'),
      '# 2026-10-29\n\n## 【10:00 deploy】\nused key ghp_a8Xk2LmQ9vT4wR7nB3cD6fH1jK5pS0uY8eZq for the bucket\n',
    );
    await mem.memory.journal().index({ root });
    const [e] = await journalEpisodes(mem);
    expect(e?.content).not.toContain('ghp_a8Xk2LmQ9vT4wR7nB3cD6fH1jK5pS0uY8eZq');
    expect(e?.content).toContain('[secret:');
    expect(mem.warnings.join('\n')).toMatch(/1 credential\(s\) redacted/);
  });
});

describe('tier moves and the day archive', () => {
  it('moves an episode with its day, keeps an archived day recallable, and restore-day brings the file back byte for byte', async () => {
    mem = await tempMemory();
    const root = workspace();
    const journal = mem.memory.journal();
    await journal.config({ root, patch: { coldMaxFiles: 1 } });
    await journal.add({
      root,
      date: '2026-09-01',
      time: '08:00',
      heading: 'kestrel kickoff',
      content: 'Met the kestrel team.',
    });
    await journal.add({
      root,
      date: '2026-09-02',
      time: '08:00',
      heading: 'heron review',
      content: 'Reviewed the heron plan.',
    });
    const original = readFileSync(join(root, 'memory/archive/hot/2026-09-01.md'));
    const [kestrel, heron] = await journalEpisodes(mem);

    const report = await journal.tend({ root });
    expect(report.archived.map((a) => a.date)).toEqual(['2026-09-01']);
    expect(existsSync(join(root, 'memory/archive/cold/2026-09-02.md'))).toBe(true);
    expect(existsSync(join(root, 'memory/archive/cold/2026-09-01.md'))).toBe(false);

    const moved = await journalEpisodes(mem);
    expect(moved.map((e) => e.id)).toEqual([kestrel!.id, heron!.id]);
    expect(moved[1]!.meta).toMatchObject({ file: 'archive/cold/2026-09-02.md', tier: 'cold' });
    expect(moved[0]!.meta).toMatchObject({ tier: 'archived', date: '2026-09-01' });
    expect((await mem.memory.recall({ query: 'kestrel' }))[0]?.text).toContain('Met the kestrel team.');
    expect((await journal.stats({ root })).archived).toBe(1);

    const restored = await journal.restoreDay({ root, date: '2026-09-01' });
    expect(restored).toMatchObject({ kind: 'restored', file: 'archive/hot/2026-09-01.md' });
    expect(readFileSync(join(root, 'memory/archive/hot/2026-09-01.md')).equals(original)).toBe(true);
    const row = await appContextOf(mem.memory).store.forSpace(mem.memory.space).journal.archivedDay(root, '2026-09-01');
    expect(row?.content).toBe(original.toString('utf8'));
    expect(row?.restoredAt).toBe(mem.clock.now());
    const back = await journalEpisodes(mem);
    expect(back[0]).toMatchObject({
      id: kestrel!.id,
      meta: { tier: 'hot', file: 'archive/hot/2026-09-01.md' },
    });
    expect(await journal.restoreDay({ root, date: '2026-09-01' })).toMatchObject({ kind: 'exists' });
    expect(await journal.restoreDay({ root, date: '2026-08-01' })).toEqual({
      kind: 'not_found',
      date: '2026-08-01',
    });
  });
});

describe('roots over the app API', () => {
  it('confines roots to the working directory and registered workspaces, refusing escapes before creating anything', async () => {
    mem = await tempMemory();
    const cwd = workspace();
    const other = workspace();
    const journal = mem.memory.journal({ confined: true, home: cwd });
    const refused = { code: 'forbidden' };
    await expect(journal.search({ root: other, query: 'x' })).rejects.toMatchObject(refused);
    await expect(
      journal.add({ root: join(cwd, '..', basename(other)), heading: 'h', content: 'c' }),
    ).rejects.toMatchObject(refused);
    symlinkSync(other, join(cwd, 'link'));
    await expect(journal.stats({ root: join(cwd, 'link') })).rejects.toMatchObject(refused);
    expect(existsSync(join(other, 'memory'))).toBe(false);
    await expect(journal.read({ root: cwd, date: '../../etc/passwd' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    // A confined caller cannot tell a missing folder from a refused one (issue #6: no probing outside).
    await expect(
      journal.read({ root: '/nonexistent/tidepool-ws', date: '2026-11-01' }),
    ).rejects.toMatchObject(refused);

    expect(
      await journal.add({ root: cwd, heading: 'here', content: 'in the working directory' }),
    ).toMatchObject({ kind: 'added' });
    await mem.memory.registerJournalWorkspace(other);
    expect(await journal.add({ root: other, heading: 'there', content: 'registered by hand' })).toMatchObject(
      { kind: 'added' },
    );
    // The unconfined journal (the local CLI) takes any existing directory.
    const third = workspace();
    expect(
      await mem.memory.journal().add({ root: third, heading: 'local', content: 'cli user' }),
    ).toMatchObject({ kind: 'added' });
    expect((await mem.memory.journal().workspaces()).workspaces.map((w) => w.root).sort()).toEqual(
      [cwd, other, third].sort(),
    );
  });
});
