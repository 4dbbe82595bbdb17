import { describe, expect, it } from 'vitest';
import {
  buildEntityGraph,
  parseEntitiesRole,
  queryEntity,
  queryPair,
  topNodes,
  type EntityDoc,
} from './entity-graph.js';

const T = Date.UTC(2026, 0, 1);

describe('parseEntitiesRole', () => {
  it('splits parts on ; outside parentheses and each part at the first =', () => {
    expect(parseEntitiesRole('A=判断+执行; B=审查')).toEqual([
      { entity: 'A', role: '判断+执行' },
      { entity: 'B', role: '审查' },
    ]);
    expect(parseEntitiesRole('小明(阿明; 同事)=提问=追问；老王＝回答')).toEqual([
      { entity: '小明', role: '提问=追问' },
      { entity: '老王', role: '回答' },
    ]);
  });

  it('accepts entities without a role, skips empty parts and merges repeated entities', () => {
    expect(parseEntitiesRole(' Alice ;; Bob=review; Alice=author ')).toEqual([
      { entity: 'Alice', role: 'author' },
      { entity: 'Bob', role: 'review' },
    ]);
    expect(parseEntitiesRole(null)).toEqual([]);
  });
});

describe('buildEntityGraph', () => {
  const docs: EntityDoc[] = [
    { id: 3, entitiesRole: 'B=审查; A=执行', createdAt: T + 3000 },
    { id: 1, entitiesRole: 'A=判断+执行; B=审查', createdAt: T + 1000 },
    { id: 2, entitiesRole: 'A=判断; C=旁观', createdAt: T + 2000 },
    { id: 4, entitiesRole: 'A=判断+执行; B=审查; C=记录', createdAt: T + 4000 },
    { id: 5, entitiesRole: null, createdAt: T + 5000 },
  ];
  const g = buildEntityGraph(docs);

  it('counts mentions and first/last seen per node, and the roles taken', () => {
    expect(g.nodes[0]).toEqual({
      entity: 'A',
      mentionCount: 4,
      firstSeen: T + 1000,
      lastSeen: T + 4000,
      roles: { '判断+执行': 2, 判断: 1, 执行: 1 },
    });
    expect(topNodes(g, 2).map((n) => [n.entity, n.mentionCount])).toEqual([
      ['A', 4],
      ['B', 3],
    ]);
  });

  it('adds one edge per pair per narrative, in the order the narrative named them', () => {
    expect(g.edges.filter((e) => e.narrativeId === 3)).toEqual([
      { entityA: 'B', roleA: '审查', entityB: 'A', roleB: '执行', narrativeId: 3, createdAt: T + 3000 },
    ]);
    expect(g.edges.filter((e) => e.narrativeId === 4)).toHaveLength(3);
  });

  it('counts co-occurrences by sorted pair with their role patterns', () => {
    const ab = g.cooccur.find((c) => c.entityA === 'A' && c.entityB === 'B')!;
    expect(ab.count).toBe(3);
    expect(ab.patterns).toEqual([
      { roleA: '判断+执行', roleB: '审查', count: 2 },
      { roleA: '执行', roleB: '审查', count: 1 },
    ]);
  });

  it('answers an entity query with its partners by count', () => {
    expect(queryEntity(g, 'a')?.partners).toEqual([
      { entity: 'B', count: 3 },
      { entity: 'C', count: 2 },
    ]);
    expect(queryEntity(g, 'Z')).toBeUndefined();
  });

  it('answers a pair query in either order, newest first, keeping each role beside its own entity', () => {
    const ba = queryPair(g, 'B, A')!;
    const ab = queryPair(g, 'A，B')!;
    expect(ba).toEqual(ab);
    expect(ab.count).toBe(3);
    expect(ab.shared.map((e) => e.narrativeId)).toEqual([4, 3, 1]);
    // Narrative 3 stored (B, A): B is still the reviewer, A the executor.
    expect(ab.shared[1]).toMatchObject({ entityA: 'B', roleA: '审查', entityB: 'A', roleB: '执行' });
    expect(queryPair(g, 'B,C')).toMatchObject({ count: 1 });
    expect(queryPair(g, 'B')).toBeUndefined();
    expect(queryPair(g, 'B,Z')).toBeUndefined();
  });
});
