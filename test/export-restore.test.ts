/** export → restore into an empty database → export gives the same lines; restore is all or nothing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { activeTokenCount, createToken, hashToken, verifyToken } from '../src/app/tokens.js';
import { assertBindAllowed } from '../src/boot/bind-policy.js';
import { openMemory } from '../src/boot/open-memory.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

let t: TempMemory;
beforeEach(async () => {
  t = await tempMemory();
});
afterEach(async () => t.cleanup());

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of it) out.push(l);
  return out;
}

async function seed(): Promise<void> {
  const m = t.memory;
  await m.remember({ text: '用户爱喝咖啡', tags: ['偏好'] });
  await m.remember({ text: 'port 1', key: 'db.port' });
  await m.remember({ text: 'port 2', key: 'db.port' });
  await m.record({ turns: [{ role: 'user', content: 'hello', session: 's' }, { role: 'tool', content: 'ok', tool: 'bash', ok: true, session: 's' }] });
  await m.write({ gesture: '我修好了同步', tags: ['同步'], entities_role: 'A=判断; B=审查', source_links: ['4'] });
  await m.writeProfile({ entity: 'Ana', content: 'v1' });
  await m.writeProfile({ entity: 'Ana', content: 'v2' });
  await m.writeSelfConcept({ field: 'fact', content: 'I am an agent' });
  await m.writeSnapshot({ content: 'calm' });
  await m.writeThread({ content: 'open question' });
  await appContextOf(m).store.forSpace('default').vectors.put('knowledge', 1, 'test-model', Float32Array.from([0.5, -1, 2]), 5);
  await m.recall({ query: '咖啡' });
}

describe('export and restore', () => {
  it('round-trips every layer losslessly and keeps the restored memory searchable', async () => {
    await seed();
    const lines = await collect(t.memory.export());
    expect(lines.length).toBeGreaterThan(15);
    const other = await openMemory({ path: join(t.dir, 'restored.db') });
    try {
      await other.restore(lines);
      expect(await collect(other.export())).toEqual(lines);
      expect((await other.recall({ query: '咖啡' }))[0]!.text).toBe('用户爱喝咖啡');
      expect((await other.recall({ query: 'port' })).map((h) => h.text)).toEqual(['port 2']);
    } finally {
      await other.close();
    }
  });

  it('refuses to restore into a non-empty space and changes nothing', async () => {
    await seed();
    const lines = await collect(t.memory.export());
    await expect(t.memory.restore(lines)).rejects.toThrow(/not empty/);
    expect(await collect(t.memory.export())).toEqual(lines);
  });

  it('a malformed line aborts the whole restore', async () => {
    await seed();
    const lines = await collect(t.memory.export());
    const target = await openMemory({ path: join(t.dir, 'r2.db') });
    try {
      await expect(target.restore([...lines.slice(0, 5), '{"table":"nope","row":{}}'])).rejects.toThrow(/line 6/);
      await expect(target.restore([...lines, '{"table":"episodes","row":{"id":1,"space":"x","bogus":1}}'])).rejects.toThrow();
      expect(await collect(target.export())).toEqual([lines[0]]);
    } finally {
      await target.close();
    }
  });

  it('forget --all erases every layer of the space', async () => {
    await seed();
    await t.memory.forget({ all: true, confirm: true });
    expect(await collect(t.memory.export())).toEqual([lines0()]);
  });
});

function lines0(): string {
  return JSON.stringify({ format: 'tidepool-export/1', space: 'default' });
}

describe('restore never brings credentials (issue 22)', () => {
  it('an export carries no API tokens, and export → restore → export is still lossless', async () => {
    await seed();
    await createToken(appContextOf(t.memory), { space: 'default', scope: 'admin', label: 'ops' });
    const lines = await collect(t.memory.export());
    expect(lines.some((l) => l.includes('"api_tokens"'))).toBe(false);
    const other = await openMemory({ path: join(t.dir, 'no-tokens.db') });
    try {
      expect((await other.restore(lines)).excluded).toBeUndefined();
      expect(await collect(other.export())).toEqual(lines);
    } finally {
      await other.close();
    }
  });

  it('a crafted export with a token row restores no live token, and the public bind stays refused', async () => {
    await seed();
    const lines = await collect(t.memory.export());
    const secret = 'tp_attacker_knows_this_secret_0123456789';
    const planted = JSON.stringify({
      table: 'api_tokens',
      row: { id: 77, space: 'default', scope: 'admin', hash: hashToken(secret), label: 'planted', created_at: 1, last_used_at: null, revoked_at: null },
    });
    const warnings: string[] = [];
    const other = await openMemory({ path: join(t.dir, 'crafted.db'), warn: (m) => warnings.push(m) });
    try {
      const r = await other.restore([...lines, planted]);
      expect(r.excluded).toEqual({ api_tokens: 1 });
      expect(warnings.join('\n')).toMatch(/API token row\(s\)/);
      expect(await activeTokenCount(appContextOf(other))).toBe(0);
      expect(await verifyToken(appContextOf(other), secret)).toBeUndefined();
      await expect(assertBindAllowed(other, '0.0.0.0')).rejects.toMatchObject({ code: 'forbidden' });
      // Everything else of the file came in.
      expect(await collect(other.export())).toEqual(lines);
    } finally {
      await other.close();
    }
  });

  it('a space that holds only tokens counts as empty for a restore', async () => {
    await seed();
    const lines = await collect(t.memory.export());
    const other = await openMemory({ path: join(t.dir, 'token-first.db') });
    try {
      await createToken(appContextOf(other), { space: 'default', scope: 'write' });
      await other.restore(lines);
      expect(await activeTokenCount(appContextOf(other))).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('restoring into another space of the same database gives the copy new ids and leaves the source as it was', async () => {
    await seed();
    const lines = await collect(t.memory.export());
    const other = await openMemory({ path: t.path, space: 'copy' });
    try {
      const r = await other.restore(lines);
      expect(r.renumbered).toEqual(expect.arrayContaining(['episodes', 'narratives', 'knowledge']));
      expect(await collect(t.memory.export())).toEqual(lines);
      expect((await other.recall({ query: 'port' })).map((h) => h.text)).toEqual(['port 2']);
      expect((await other.recall({ query: 'port' }))[0]!.id).not.toBe((await t.memory.recall({ query: 'port' }))[0]!.id);
    } finally {
      await other.close();
    }
  });
});
