import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../test/fixtures/journal/fixture-workspace.js';
import {
  AGENTS_HINT_BEGIN,
  AGENTS_HINT_END,
  DEFAULT_AGENTS_HINT,
  DSH_HINT_BEGIN,
  DSH_HINT_END,
  applyAgentsHint,
  syncAgentsHint,
} from './agents-hint.js';

const agents = (root: string) => path.join(root, 'AGENTS.md');

describe('syncAgentsHint', () => {
  it('creates AGENTS.md with a title and the block, then deletes the shell it created when disabled', async () => {
    const root = tempWorkspace();
    expect((await syncAgentsHint(root, { enabled: true })).kind).toBe('created');
    const text = fs.readFileSync(agents(root), 'utf8');
    expect(text).toBe(`# AGENTS.md\n\n${AGENTS_HINT_BEGIN}\n${DEFAULT_AGENTS_HINT}\n${AGENTS_HINT_END}\n`);
    expect(text).toMatch(/## 【14:30 what was done】/);
    expect((await syncAgentsHint(root, { enabled: false })).kind).toBe('deleted');
    expect(fs.existsSync(agents(root))).toBe(false);
    expect((await syncAgentsHint(root, { enabled: false })).kind).toBe('absent');
  });

  it('appends to an existing file and removes the block leaving every outside byte as it was', async () => {
    for (const original of ['# Team rules\n\nBe kind.\n', 'no final newline', '# Rules\n\nText.\n\n', '']) {
      const root = tempWorkspace();
      fs.writeFileSync(agents(root), original);
      expect((await syncAgentsHint(root, { enabled: true })).kind).toBe('appended');
      const withBlock = fs.readFileSync(agents(root), 'utf8');
      expect(withBlock.startsWith(original)).toBe(true);
      expect(withBlock.endsWith(`${AGENTS_HINT_END}\n`)).toBe(true);
      const r = await syncAgentsHint(root, { enabled: false });
      if (original === '') {
        expect(r.kind).toBe('deleted');
        continue;
      }
      expect(r.kind).toBe('removed');
      const back = fs.readFileSync(agents(root), 'utf8');
      expect(back).toBe(original.endsWith('\n') ? original : `${original}\n`);
    }
  });

  it('does not write when the content is unchanged, and updates only the block when it changes', async () => {
    const root = tempWorkspace();
    fs.writeFileSync(agents(root), '# A\n\nbefore\n');
    await syncAgentsHint(root, { enabled: true, content: 'v1' });
    fs.appendFileSync(agents(root), '\nafter the block\n');
    const stamp = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(agents(root), stamp, stamp);
    expect((await syncAgentsHint(root, { enabled: true, content: 'v1' })).kind).toBe('unchanged');
    expect(fs.statSync(agents(root)).mtime.getTime()).toBe(stamp.getTime());
    expect((await syncAgentsHint(root, { enabled: true, content: 'v2' })).kind).toBe('updated');
    expect(fs.readFileSync(agents(root), 'utf8')).toBe(
      `# A\n\nbefore\n\n${AGENTS_HINT_BEGIN}\nv2\n${AGENTS_HINT_END}\n\nafter the block\n`,
    );
  });

  it("takes over dsh-memory-tide's block in place instead of adding a second one, and removes it when disabled", async () => {
    const dsh = `${DSH_HINT_BEGIN}\n## 记忆\n- 开局先读 MEMORY.md 和最近两天。\n${DSH_HINT_END}`;
    const original = `# Team rules\n\nBe kind.\n\n${dsh}\n\nMore rules below.\n`;
    const root = tempWorkspace();
    fs.writeFileSync(agents(root), original);
    expect((await syncAgentsHint(root, { enabled: true })).kind).toBe('updated');
    const ours = `${AGENTS_HINT_BEGIN}\n${DEFAULT_AGENTS_HINT}\n${AGENTS_HINT_END}`;
    expect(fs.readFileSync(agents(root), 'utf8')).toBe(original.replace(dsh, ours));
    expect((await syncAgentsHint(root, { enabled: true })).kind).toBe('unchanged');
    // Both blocks (ours appended by an older Tidepool beside dsh's): one is left.
    const both = `${original}\n${ours}\n`;
    expect(applyAgentsHint(both, { enabled: true })).toEqual({ kind: 'updated', next: `# Team rules\n\nBe kind.\n\nMore rules below.\n\n${ours}\n` });
    // Disabled: dsh's block goes as ours would, the outside text stays.
    expect(applyAgentsHint(original, { enabled: false })).toEqual({ kind: 'removed', next: '# Team rules\n\nBe kind.\n\nMore rules below.\n' });
    expect(applyAgentsHint(`# AGENTS.md\n\n${dsh}\n`, { enabled: false })).toEqual({ kind: 'deleted', next: null });
    expect(applyAgentsHint(`${DSH_HINT_BEGIN}\nno end`, { enabled: true }).kind).toBe('malformed');
  });

  it('leaves a file with a broken block alone', () => {
    const text = `# A\n${AGENTS_HINT_BEGIN}\nno end marker\n`;
    expect(applyAgentsHint(text, { enabled: true })).toEqual({ kind: 'malformed', next: text });
    expect(applyAgentsHint(text, { enabled: false })).toEqual({ kind: 'malformed', next: text });
  });

  it('keeps CRLF line endings of a Windows file', () => {
    const r = applyAgentsHint('# A\r\n', { enabled: true, content: 'x' });
    expect(r.next).toBe(`# A\r\n\r\n${AGENTS_HINT_BEGIN}\r\nx\r\n${AGENTS_HINT_END}\r\n`);
    expect(applyAgentsHint(r.next as string, { enabled: false })).toEqual({
      kind: 'removed',
      next: '# A\r\n',
    });
  });

  it('refuses a root that is not an existing directory and leaves a symlinked AGENTS.md alone', async () => {
    await expect(syncAgentsHint(path.join(tempWorkspace(), 'nope'), { enabled: true })).rejects.toMatchObject(
      { code: 'invalid_input' },
    );
    const root = tempWorkspace();
    const outside = path.join(tempWorkspace(), 'elsewhere.md');
    fs.writeFileSync(outside, 'outside\n');
    fs.symlinkSync(outside, agents(root));
    expect((await syncAgentsHint(root, { enabled: true })).kind).toBe('skipped_symlink');
    expect(fs.readFileSync(outside, 'utf8')).toBe('outside\n');
  });
});
