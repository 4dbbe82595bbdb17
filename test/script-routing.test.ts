/** recall.routeClusters: a query reaches narratives of neighbouring soft clusters that neither words nor vectors find. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedServer, type MockEmbedServer } from './helpers/mock-embed-server.js';
import { T0, tempMemory, type TempMemory } from './helpers/temp-memory.js';

const AXES = ['alpha', 'beta', 'gamma', 'delta'];
let embed: MockEmbedServer;
let t: TempMemory | undefined;
beforeAll(async () => {
  // One axis per topic word; a text without one sits on a fifth axis.
  embed = await startEmbedServer((text) => {
    const v = new Array<number>(5).fill(0);
    const i = AXES.findIndex((w) => text.includes(w));
    v[i < 0 ? 4 : i] = 1;
    return v;
  });
});
afterAll(async () => embed.close());
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function memoryWith(routeClusters: boolean): Promise<TempMemory> {
  const m = await tempMemory({
    config: { embedder: { provider: 'tideline', url: embed.url, attempts: 1 }, recall: { routeClusters } },
  });
  const texts = AXES.flatMap((w) => [1, 2, 3].map((i) => `${w} shipment number ${i} arrived`));
  for (const [i, gesture] of texts.entries()) await m.memory.write({ gesture, at: T0 - (20 - i) * 60_000 });
  const built = await m.memory.script('soft-clusters');
  expect(built.job === 'soft-clusters' && built.status).toBe('built');
  return m;
}

describe('one-hop cluster routing in recall', () => {
  it('is off by default: only lexical and vector candidates are returned', async () => {
    t = await memoryWith(false);
    const hits = await t.memory.recall({ query: 'alpha question', layers: ['narrative'], limit: 20 });
    expect(hits.map((h) => h.text).every((x) => x.startsWith('alpha'))).toBe(true);
  });

  it("when enabled, spreads to the members of the clusters next to the query's own", async () => {
    t = await memoryWith(true);
    const hits = await t.memory.recall({ query: 'alpha question', layers: ['narrative'], limit: 20 });
    const texts = hits.map((h) => h.text);
    expect(texts.slice(0, 3).every((x) => x.startsWith('alpha'))).toBe(true);
    expect(texts.some((x) => !x.startsWith('alpha'))).toBe(true);
  });
});
