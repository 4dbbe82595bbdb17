import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemory } from '../../boot/open-memory.js';
import { checkAfterRound } from './crash-check.js';
import { buildWorkspace, factText, turnText } from './crash-workload.js';

const dir = mkdtempSync(join(tmpdir(), 'tidepool-crash-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the crash bench checker', () => {
  it('passes acknowledged writes that are there and reports each one missing or altered, and each lost or changed journal day', async () => {
    const path = join(dir, 'memory.db');
    const memory = await openMemory({ path, embedder: 'none', warn: () => {} });
    const rec = await memory.record({ turns: [0, 1].map((j) => ({ role: 'user', content: turnText('x0l1n0', j), session: 's' })) });
    const rem = await memory.remember({ text: factText('x0l2n0') });
    if (rem.kind !== 'created') throw new Error(`remember answered ${rem.kind}`);
    await memory.close();
    const present = [
      { kind: 'turns', via: 'cli', tag: 'x0l1n0', ids: rec.ids },
      { kind: 'fact', via: 'http', tag: 'x0l2n0', id: rem.id, episodeId: rem.episode_id! },
    ] as const;
    expect(checkAfterRound(path, present)).toEqual({ integrity: [], lost: [] });

    const root = join(dir, 'ws');
    const days = buildWorkspace(root, Date.UTC(2026, 10, 20));
    const ws = { root, days, finished: false };
    expect(checkAfterRound(path, [], [ws]).integrity).toEqual([]);
    const [first, second] = [...days.keys()];
    rmSync(join(root, 'memory', `${first}.md`));
    writeFileSync(join(root, 'memory', `${second}.md`), 'changed');
    const r = checkAfterRound(path, [
      ...present,
      { kind: 'turns', via: 'cli', tag: 'x0l1n0', ids: [rec.ids[1]!, rec.ids[0]!] },
      { kind: 'fact', via: 'cli', tag: 'x9l9n9', id: 'k99' },
      { kind: 'import', via: 'import', tag: 'x0l1n0', n: 3 },
    ], [ws]);
    expect(r.lost).toEqual([
      `cli turns x0l1n0: turn 0 (${rec.ids[1]})`,
      `cli turns x0l1n0: turn 1 (${rec.ids[0]})`,
      'cli fact x9l9n9: knowledge k99',
      'import import x0l1n0: turn 2 (by text)',
    ]);
    expect([...r.integrity].sort()).toEqual(
      [`${root}: day ${first} is nowhere`, `${root}: ${second} in legacy differs from what was written`, `${root}: day ${second} is nowhere`].sort(),
    );
  });
});
