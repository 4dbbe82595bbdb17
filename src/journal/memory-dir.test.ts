import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { put, tempWorkspace } from '../../test/fixtures/journal/fixture-workspace.js';
import { MemoryDir } from './memory-dir.js';

async function opened(): Promise<MemoryDir> {
  const dir = await MemoryDir.open(tempWorkspace());
  await dir.ensureLayout();
  return dir;
}

describe('MemoryDir', () => {
  it('requires root to be an existing directory', async () => {
    const root = tempWorkspace();
    await expect(MemoryDir.open(path.join(root, 'missing'))).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'root',
    });
    put(root, 'file.txt', 'x');
    await expect(MemoryDir.open(path.join(root, 'file.txt'))).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(MemoryDir.open('')).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it.each([
    '../x.md',
    'archive/../../x.md',
    '/etc/passwd',
    'archive\\hot\\x.md',
    './x.md',
    'a//b.md',
    'x\0.md',
  ])('refuses the relative path %j', async (rel) => {
    const dir = await opened();
    expect(() => dir.abs(rel)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    await expect(dir.readText(rel)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(dir.writeAtomic(rel, 'x')).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('never reads or writes through a symlink pointing out of memory/', async () => {
    const dir = await opened();
    const outside = path.join(tempWorkspace(), 'secret.txt');
    fs.writeFileSync(outside, 'outside');
    fs.symlinkSync(outside, path.join(dir.path, 'archive/hot/2026-01-01.md'));
    await expect(dir.readText('archive/hot/2026-01-01.md')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(dir.writeAtomic('archive/hot/2026-01-01.md', 'x')).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(await dir.listDays()).toEqual([]);
    expect(fs.readFileSync(outside, 'utf8')).toBe('outside');
  });

  it('refuses a memory/ or tier folder that is a symlink', async () => {
    const root = tempWorkspace();
    const elsewhere = tempWorkspace();
    fs.symlinkSync(elsewhere, path.join(root, 'memory'));
    const dir = await MemoryDir.open(root);
    await expect(dir.exists()).rejects.toMatchObject({ code: 'forbidden' });
    await expect(dir.ensureLayout()).rejects.toMatchObject({ code: 'forbidden' });
    expect(fs.readdirSync(elsewhere)).toEqual([]);

    const root2 = tempWorkspace();
    fs.mkdirSync(path.join(root2, 'memory/archive'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(root2, 'memory/archive/cold'));
    const dir2 = await MemoryDir.open(root2);
    await expect(dir2.listDays()).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('creates exclusively, never replacing an existing file', async () => {
    const dir = await opened();
    expect(await dir.createExclusive('MEMORY.md', 'first')).toBe(true);
    expect(await dir.createExclusive('MEMORY.md', 'second')).toBe(false);
    expect(await dir.readText('MEMORY.md')).toBe('first');
  });

  it('writes atomically, leaving no temp file behind', async () => {
    const dir = await opened();
    await dir.writeAtomic('archive/hot/2026-01-01.md', 'a');
    await dir.writeAtomic('archive/hot/2026-01-01.md', 'b');
    expect(await dir.readText('archive/hot/2026-01-01.md')).toBe('b');
    expect(fs.readdirSync(path.join(dir.path, 'archive/hot'))).toEqual(['2026-01-01.md']);
  });

  it('links without clobbering and removes stray temp files of an interrupted write', async () => {
    const dir = await opened();
    await dir.writeAtomic('archive/hot/2026-01-01.md', 'hot');
    await dir.writeAtomic('archive/cold/2026-01-01.md', 'cold');
    expect(await dir.linkNoClobber('archive/hot/2026-01-01.md', 'archive/cold/2026-01-01.md')).toBe('exists');
    expect(await dir.readText('archive/cold/2026-01-01.md')).toBe('cold');
    expect(await dir.linkNoClobber('archive/hot/2026-01-02.md', 'archive/cold/2026-01-02.md')).toBe(
      'missing',
    );
    put(dir.root, 'memory/archive/hot/.2026-01-03.md.4242.deadbeef.tmp', 'half');
    expect(await dir.removeStrayTemps()).toEqual(['archive/hot/.2026-01-03.md.4242.deadbeef.tmp']);
  });

  it('lists only real day files in each place', async () => {
    const dir = await opened();
    for (const rel of [
      'archive/hot/2026-11-05.md',
      'archive/cold/2026-02-30.md',
      'archive/cold/notes.md',
      'archive/hot/INDEX.md',
      '2026-10-20.md',
    ]) {
      put(dir.root, `memory/${rel}`, 'x');
    }
    expect(await dir.listDays()).toEqual([
      { date: '2026-10-20', location: 'legacy', file: '2026-10-20.md' },
      { date: '2026-11-05', location: 'hot', file: 'archive/hot/2026-11-05.md' },
    ]);
  });
});
