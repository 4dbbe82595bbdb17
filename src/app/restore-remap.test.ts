// remapRows, shape by shape: ids in columns, inside JSON and in text move with their tables; everything else stays.
import { describe, expect, it } from 'vitest';
import type { IdTable } from '../store/row-refs.js';
import { remapRows, shiftsAny } from './restore-remap.js';

type Row = Record<string, unknown>;
const shift = new Map<IdTable, number>([
  ['episodes', 1000],
  ['narratives', 2000],
  ['knowledge', 3000],
  ['sleep_runs', 40],
  ['emb_clusters', 7],
  ['snapshots', 500],
  ['threads', 600],
]);

function one(table: string, row: Row): Row {
  return remapRows(new Map([[table, [row]]]), shift).get(table)![0]!;
}

describe('remapRows', () => {
  it('moves own ids, plain references and layer-named item ids, and leaves plain columns alone', () => {
    expect(one('knowledge_links', { id: 3, space: 'b', from_id: 1, to_id: 2, type: 'supports', created_at: 5 })).toEqual({
      id: 3, space: 'b', from_id: 3001, to_id: 3002, type: 'supports', created_at: 5,
    });
    expect(one('embeddings', { space: 'b', layer: 'narrative', item_id: 4, model: 'm', dim: 8, vector: null, created_at: 1 })).toMatchObject({ item_id: 2004 });
    expect(one('emb_cluster_adjacency', { space: 'b', cluster_a: 1, cluster_b: 2, shared_count: 3 })).toEqual({ space: 'b', cluster_a: 8, cluster_b: 9, shared_count: 3 });
  });

  it('moves ids inside knowledge evidence and meta, and narrative source links', () => {
    const k = one('knowledge', {
      id: 1, evidence: '{"episodes":[1,2],"narratives":[3]}', superseded_by: 9,
      meta: '{"mergedFrom":[4,5],"quarantine":{"supersedes":6,"conflictsWith":7,"key":"a","reason":"r"},"review":{"verdict":"approve"}}',
    });
    expect(k.id).toBe(3001);
    expect(k.superseded_by).toBe(3009);
    expect(JSON.parse(String(k.evidence))).toEqual({ episodes: [1001, 1002], narratives: [2003] });
    expect(JSON.parse(String(k.meta))).toEqual({ mergedFrom: [3004, 3005], quarantine: { supersedes: 3006, conflictsWith: 3007, key: 'a', reason: 'r' }, review: { verdict: 'approve' } });
    expect(one('narratives', { id: 2, source_links: '[1,5]' })).toMatchObject({ id: 2002, source_links: '[1001,1005]' });
  });

  it('moves the ids that job states, night logs, unit plans and briefings name', () => {
    expect(JSON.parse(String(one('job_state', { job: 'review:pii', value: '[{"ref":"e3","kinds":["email"],"at":1},{"ref":"k2","kinds":["phone"],"at":2}]' }).value))).toEqual([
      { ref: 'e1003', kinds: ['email'], at: 1 },
      { ref: 'k3002', kinds: ['phone'], at: 2 },
    ]);
    expect(JSON.parse(String(one('job_state', { job: 'sleep:self_image', value: '{"ids":[1,2]}' }).value))).toEqual({ ids: [3001, 3002] });
    expect(
      JSON.parse(String(one('job_state', { job: 'import:tideline:abc', value: '{"narratives":{"t1":4},"snapshots":{"s":1},"threads":{"x":2},"profiles":["p"],"selfConcept":[],"topicClusters":[]}' }).value)),
    ).toEqual({ narratives: { t1: 2004 }, snapshots: { s: 501 }, threads: { x: 602 }, profiles: ['p'], selfConcept: [], topicClusters: [] });
    expect(one('job_state', { job: 'sleep:pii', value: '{"entries":[["Ana","[PERSON_1]"]],"watched":[]}' }).value).toBe('{"entries":[["Ana","[PERSON_1]"]],"watched":[]}');
    const log = JSON.parse(String(one('sleep_runs', { id: 1, log: '{"created":[{"id":1,"content":"x"}],"superseded":[{"old":{"id":2,"content":"a"},"by":{"id":3,"content":"b"}}],"piiFlags":[{"ref":"n4","kinds":["email"]}],"episodes":12}' }).log));
    expect(log).toEqual({ created: [{ id: 3001, content: 'x' }], superseded: [{ old: { id: 3002, content: 'a' }, by: { id: 3003, content: 'b' } }], piiFlags: [{ ref: 'n2004', kinds: ['email'] }], episodes: 12 });
    const work = one('sleep_work', { run_id: 2, status: 'done', payload: '{"chunks":[[1,2],[3]],"loose":[4]}', result: '{"delta":{"created":[{"id":5,"content":"c"}]},"asks":[]}' });
    expect(work.run_id).toBe(42);
    expect(JSON.parse(String(work.payload))).toEqual({ chunks: [[1001, 1002], [1003]], loose: [1004] });
    expect(JSON.parse(String(work.result))).toEqual({ delta: { created: [{ id: 3005, content: 'c' }] }, asks: [] });
    expect(one('briefings', { day: '2026-11-02', body: '- "x" contradicts "y" (r) [#12]\n[#not]' }).body).toBe('- "x" contradicts "y" (r) [#3012]\n[#not]');
  });

  it('drops the cached model answers of a unit not yet done, so a resumed night asks again', () => {
    expect(one('sleep_work', { run_id: 1, status: 'asked', payload: '{"episodeIds":[1]}', result: '{"asks":[{"kind":"ok","value":{"ids":["e1"]}}]}' })).toMatchObject({
      status: 'planned',
      result: null,
      payload: '{"episodeIds":[1001]}',
    });
  });

  it('finds the layer of an attention stat\'s last item in the log, and empties it when the log cannot tell', () => {
    const out = remapRows(
      new Map<string, Row[]>([
        ['attention_log', [{ id: 1, layer: 'knowledge', item_id: 5, created_at: 100 }]],
        ['attention_stats', [{ cluster: 'a', last_hit: 100, last_item_id: 5 }, { cluster: 'b', last_hit: 200, last_item_id: 5 }]],
      ]),
      shift,
    );
    expect(out.get('attention_stats')!.map((r) => r.last_item_id)).toEqual([3005, null]);
  });

  it('keeps text that is not JSON as it is, and says when nothing moves', () => {
    expect(one('narratives', { id: 1, source_links: 'not json' }).source_links).toBe('not json');
    expect(shiftsAny(new Map())).toBe(false);
    expect(shiftsAny(shift)).toBe(true);
  });
});
