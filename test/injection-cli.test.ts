/** `tidepool context` and `tidepool prefetch` through the real binary. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-inject-cli-'));
  db = join(dir, 'm.db');
  expect((await runCli(['remember', 'The Kestrel runners have 8 GB of memory', '--db', db])).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tidepool context / prefetch', () => {
  it('prints the block with SOUL.md from the workspace, and its parts as JSON', async () => {
    writeFileSync(join(dir, 'SOUL.md'), 'I am patient and precise.');
    const r = await runCli(['context', '--db', db, '--workspace', dir, '--json', '--max-tokens', '300']);
    expect(r.code, r.stderr).toBe(0);
    const block = JSON.parse(r.stdout) as { text: string; tokens: number; max_tokens: number; sections: Array<{ id: string }> };
    // The remembered fact is what the memory knows about working with this user: it belongs in the block.
    expect(block.text).toBe('# Memory (Tidepool)\n\n## Who I am\nI am patient and precise.\n\n## What I know about working with you\n- The Kestrel runners have 8 GB of memory (fact, today)\n');
    expect(block.max_tokens).toBe(300);
    expect(block.sections.map((s) => s.id)).toEqual(['identity', 'knows']);
  });

  it('prints related memories for a message given as text or on stdin, and says when nothing is related', async () => {
    const r = await runCli(['prefetch', 'how much memory do the Kestrel runners have?', '--db', db, '--session', 'c1']);
    expect(r.stdout).toBe('## Related memories (auto-recalled)\n- The Kestrel runners have 8 GB of memory (fact, today)\n');
    const again = await runCli(['prefetch', '--db', db, '--session', 'c1'], { stdin: 'Kestrel runners memory again?' });
    expect(again.stdout).toBe('nothing related found\n');
  });
});
