/** export → restore into an empty database → export gives the same lines; restore is all or nothing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openMemory } from '../src/boot/open-memory.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

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
  await m.ctx.store.vectors.put('default', 'knowledge', 1, 'test-model', Float32Array.from([0.5, -1, 2]), 5);
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
