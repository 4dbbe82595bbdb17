import { describe, expect, it } from 'vitest';
import { renderScanMarkdown, scanUnindexed, type ScanEpisode, type ScanNarrative } from './layer0-scan.js';

const T = Date.UTC(2026, 2, 1, 9);
const MIN = 60_000;
const ep = (
  id: number,
  minute: number,
  role: string | null,
  session: string | null = 's1',
  hasEmbedding = true,
  content = `turn ${id}`,
): ScanEpisode => ({
  id,
  content,
  role,
  session,
  createdAt: T + minute * MIN,
  hasEmbedding,
});

describe('scanUnindexed', () => {
  const narratives: ScanNarrative[] = [
    { id: 1, sourceLinks: [], createdAt: T - 60 * MIN, hasEmbedding: true },
    { id: 2, sourceLinks: null, createdAt: T - 30 * MIN, hasEmbedding: false },
    { id: 3, sourceLinks: [5], createdAt: T, hasEmbedding: true },
  ];
  const episodes: ScanEpisode[] = [
    ep(4, -5, 'user'), // before the newest narrative
    ep(5, 1, 'user'), // already linked by narrative 3
    ep(6, 2, 'user'),
    ep(7, 5, 'assistant'),
    ep(8, 15, 'user'), // gap of exactly 10 min continues the chunk
    ep(9, 16, 'tool'), // not a conversation turn
    ep(10, 27, 'assistant'), // gap of 11 min starts a new chunk, which stays under 3 turns
    ep(11, 28, 'user'),
    ep(12, 3, null, 's2', false, '[USER] legacy row'),
    ep(13, 4, null, 's2', false, '[ASSISTANT] legacy reply'),
    ep(14, 6, null, 's2', true, '[USER] more'),
  ];
  const scan = scanUnindexed(narratives, episodes);

  it('track A lists narratives without source_links', () => {
    expect(scan.trackA).toEqual({ count: 2, narrativeIds: [1, 2] });
  });

  it('track B chunks the turns after the newest narrative by ≤ 10-minute gaps per session and drops chunks under 3 turns', () => {
    expect(scan.trackB.since).toBe(T);
    expect(scan.trackB.chunks.map((c) => c.episodeIds)).toEqual([
      [6, 7, 8],
      [12, 13, 14],
    ]);
    expect(scan.trackB.chunks.map((c) => c.chunkId)).toEqual([1, 2]);
    expect(scan.trackB.chunks[0]).toMatchObject({
      session: 's1',
      start: T + 2 * MIN,
      end: T + 15 * MIN,
      entryCount: 3,
    });
    expect(scan.trackB.chunks[1]!.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(scan.trackB.droppedTurns).toBe(2);
  });

  it('tracks C and D count missing embeddings', () => {
    expect(scan.trackC).toEqual({ count: 1, narrativeIds: [2] });
    expect(scan.trackD).toEqual({ count: 2, episodeIds: [12, 13] });
  });

  it('reads every turn when there is no narrative, and honours an explicit since', () => {
    expect(scanUnindexed([], episodes).trackB.since).toBeNull();
    expect(scanUnindexed([], episodes).trackB.chunks[0]!.episodeIds).toEqual([4, 5, 6, 7, 8]);
    expect(scanUnindexed(narratives, episodes, { since: T + 10 * MIN }).trackB.chunks).toEqual([]);
  });

  it('renders markdown with chunk headers, context_ids and rows cut to 300 characters', () => {
    const long = ep(20, 40, 'user', 's3', true, 'x'.repeat(400));
    const md = renderScanMarkdown(
      scanUnindexed(narratives, [...episodes, long, ep(21, 41, 'assistant', 's3'), ep(22, 42, 'user', 's3')]),
    );
    expect(md).toContain('Track A: 2 narratives without source_links (ids 1, 2)');
    expect(md).toContain('## Chunk 1: 2026-03-01 09:02, 3 entries (session s1)');
    expect(md).toContain('context_ids: [6, 7, 8]');
    expect(md).toContain('[USER] legacy row');
    expect(md).toContain(`[USER] ${'x'.repeat(293)}…`);
    expect(md).not.toContain('x'.repeat(301));
  });

  it('is plain JSON for the sleep layer', () => {
    expect(JSON.parse(JSON.stringify(scan))).toEqual(scan);
  });
});
