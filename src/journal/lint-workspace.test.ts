import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockAt, copyFixture, put, snapshotTree } from '../../test/fixtures/journal/fixture-workspace.js';
import { Journal } from './journal.js';
import { resolvePointer } from './lint-rules.js';
import { MemoryJournalHost } from './memory-journal-host.js';

const journal = () => new Journal({ host: new MemoryJournalHost(), clock: clockAt('2026-11-05') });

describe('journal lint on the lint fixture', () => {
  it('finds each kind of problem exactly where it is, and nothing else', async () => {
    const root = copyFixture('lint');
    const r = await journal().lint({ root });
    expect(r.ok).toBe(false);
    expect(r.issues.map((i) => [i.file, i.line ?? null, i.kind])).toEqual([
      ['2026-10-01.md', null, 'legacy_day'],
      ['archive/cold/INDEX.md', null, 'stale_index'],
      ['archive/hot/2026-11-04.md', 4, 'dead_pointer'],
      ['archive/hot/2026-11-04.md', 6, 'untimed_heading'],
      ['archive/hot/2026-11-04.md', 9, 'empty_section'],
      ['archive/hot/2026-11-04.md', 11, 'duplicate_section'],
      ['archive/hot/2026-11-04.md', 12, 'dead_pointer'],
      ['archive/hot/2026-11-04.md', 14, 'long_section'],
      ['archive/hot/2026-11-04.md', 57, 'duplicate_section'],
      ['archive/hot/INDEX.md', null, 'stale_index'],
      ['archive/hot/INDEX.md', 4, 'dead_pointer'],
      ['MEMORY.md', 7, 'dead_pointer'],
      ['MEMORY.md', 8, 'dead_pointer'],
      ['MEMORY.md', 10, 'duplicate_section'],
    ]);
    const byLine = (file: string, line: number) => r.issues.find((i) => i.file === file && i.line === line)!;
    expect(byLine('MEMORY.md', 7).details).toMatchObject({ movedTo: 'archive/cold/2026-09-30.md' });
    expect(byLine('archive/hot/2026-11-04.md', 11).details).toEqual({ by: 'content', firstLine: 3 });
    expect(byLine('archive/hot/2026-11-04.md', 57).details).toEqual({ by: 'heading', firstLine: 51 });
    expect(byLine('archive/hot/2026-11-04.md', 14).details).toEqual({ lines: 35, sectionWarn: 30 });
    expect(
      r.issues.find((i) => i.file === 'archive/hot/INDEX.md' && i.kind === 'stale_index')!.details,
    ).toEqual({ missing: [], extra: ['2026-11-01'] });
    expect(r.counts).toMatchObject({ dead_pointer: 5, duplicate_section: 3, stale_index: 2 });
  });

  it('applies sectionWarn from .tide.json', async () => {
    const root = copyFixture('lint');
    const j = journal();
    await j.config({ root, patch: { sectionWarn: 40 } });
    expect((await j.lint({ root })).counts.long_section).toBeUndefined();
  });

  it('changes no day file, index or MEMORY.md', async () => {
    const root = copyFixture('lint');
    const before = snapshotTree(path.join(root, 'memory/archive'));
    await journal().lint({ root });
    expect(snapshotTree(path.join(root, 'memory/archive'))).toEqual(before);
  });

  it('reports a day with two different copies, a bad config and a corrupt usage file', async () => {
    const root = copyFixture('lint');
    put(root, 'memory/archive/hot/2026-09-30.md', '# 2026-09-30\n\n## 【09:10 other】\nDifferent.\n');
    fs.writeFileSync(path.join(root, 'memory/.tide.json'), '{"hotKeepDays": -1}');
    fs.writeFileSync(path.join(root, 'memory/.usage.json'), '[');
    const r = await journal().lint({ root });
    expect(r.issues.find((i) => i.kind === 'duplicate_day')).toMatchObject({
      severity: 'error',
      details: { locations: ['hot', 'cold'], identical: false },
    });
    expect(r.counts).toMatchObject({ bad_config: 1, bad_usage: 1 });
  });

  it('passes a clean workspace after a tend', async () => {
    const root = copyFixture('tide');
    const j = journal();
    await j.tend({ root });
    const r = await j.lint({ root });
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe('resolvePointer', () => {
  it.each([
    ['MEMORY.md', 'archive/cold/2026-09-30.md', { kind: 'inside', path: 'archive/cold/2026-09-30.md' }],
    ['archive/hot/INDEX.md', '2026-11-04.md#top', { kind: 'inside', path: 'archive/hot/2026-11-04.md' }],
    ['MEMORY.md', 'archive\\cold\\', { kind: 'inside', path: 'archive/cold' }],
    ['MEMORY.md', 'my%20notes.md', { kind: 'inside', path: 'my notes.md' }],
    ['MEMORY.md', '../docs/runbook.md', { kind: 'outside' }],
    ['archive/hot/x.md', '../../../etc/passwd', { kind: 'outside' }],
    ['MEMORY.md', '/etc/passwd', { kind: 'outside' }],
    ['MEMORY.md', 'C:\\Windows\\win.ini', { kind: 'outside' }],
    ['MEMORY.md', 'https://example.com', { kind: 'external' }],
    ['MEMORY.md', '#rules', { kind: 'external' }],
  ])('resolves a link from %s to %s', (from, target, expected) => {
    expect(resolvePointer(from, target)).toEqual(expected);
  });
});
