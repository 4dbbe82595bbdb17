/** `importFile` for every transcript format on real fixture files: what lands in the episode layer, idempotently. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportFileInput, ImportFileResult } from '../src/app/import-sessions.js';
import { parseTranscript } from '../src/script/import-formats/parse-transcript.js';
import type { ImportFormat } from '../src/script/import-formats/imported-turn.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'import');
let t: TempMemory | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

function input(name: string, format?: ImportFormat | 'auto'): ImportFileInput {
  const path = join(FIXTURES, name);
  return {
    path,
    format,
    readHead: async (n) => readFileSync(path).subarray(0, n),
    readAll: async () => readFileSync(path),
  };
}

function imported(r: ImportFileResult): Extract<ImportFileResult, { status: 'imported' }> {
  if (r.status !== 'imported') throw new Error(`import failed: ${r.reason}`);
  return r;
}

async function allEpisodes(m: TempMemory) {
  return (
    await appContextOf(m.memory).store.forSpace('default').episodes.timeline({
      limit: 1000,
      offset: 0,
      order: 'asc',
      includeArchived: true,
    })
  ).items;
}

const CASES: Array<[string, Exclude<ImportFormat, 'tideline'>]> = [
  ['claude-code-session.jsonl', 'claude-code'],
  ['codex-rollout-2025-09-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl', 'codex'],
  ['codex-legacy-rollout.jsonl', 'codex'],
  ['hermes-session_20250812_093000_a1b2c3.json', 'hermes'],
  ['hermes-20250813_gateway.jsonl', 'hermes'],
  ['openai-messages.jsonl', 'openai-jsonl'],
  ['openai-conversations.jsonl', 'openai-jsonl'],
  ['chat-export-2025-03-04.md', 'markdown'],
  ['people-transcript.md', 'markdown'],
  ['locomo-mini.json', 'locomo'],
];

describe('import of each format', () => {
  it.each(CASES)(
    '%s is detected as %s, stored as durable import episodes, and a second import adds nothing',
    async (name, format) => {
      t = await tempMemory();
      const expected = parseTranscript(format, readFileSync(join(FIXTURES, name), 'utf8'), {
        fileId: name,
      }).turns;
      expect(expected.length).toBeGreaterThan(0);
      const first = imported(await t.memory.importFile(input(name)));
      expect(first).toMatchObject({ format, turns: expected.length, imported: expected.length, skipped: 0 });
      const eps = await allEpisodes(t);
      expect(eps).toHaveLength(expected.length);
      expect(eps.every((e) => e.source === 'import' && e.durable && e.ref !== null)).toBe(true);
      expect(new Set(eps.map((e) => e.ref))).toEqual(new Set(expected.map((x) => x.ref)));
      const second = imported(await t.memory.importFile(input(name)));
      expect(second).toMatchObject({ imported: 0, skipped: expected.length });
      expect(await appContextOf(t.memory).store.forSpace('default').episodes.count()).toBe(expected.length);
    },
  );

  it('keeps Claude Code tool calls and results as their own kinds with tool name and outcome', async () => {
    t = await tempMemory();
    imported(await t.memory.importFile(input('claude-code-session.jsonl')));
    const eps = await allEpisodes(t);
    const calls = eps.filter((e) => e.kind === 'tool_call');
    const results = eps.filter((e) => e.kind === 'tool_result');
    expect(calls.length).toBeGreaterThan(0);
    expect(results.length).toBeGreaterThan(0);
    expect(calls.every((e) => e.role === 'tool' && e.tool !== null && typeof e.ok === 'boolean')).toBe(true);
    expect(
      eps.filter((e) => e.role === 'user' || e.role === 'assistant').every((e) => e.kind === 'turn'),
    ).toBe(true);
    expect(eps.map((e) => e.content).join('\n')).toContain('The database connection pool runs out');
    expect(eps.every((e) => e.session === '5f0c2e4a-9d1b-4c3e-8a7f-2b6d1e9c0a11')).toBe(true);
  });

  it('keeps LoCoMo speakers and session times, never the annotations', async () => {
    t = await tempMemory();
    imported(await t.memory.importFile(input('locomo-mini.json', 'locomo')));
    const eps = await allEpisodes(t);
    expect(new Set(eps.map((e) => e.speaker))).toEqual(new Set(['Ana', 'Ben']));
    expect(eps[0]!.occurredAt).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(eps.some((e) => e.content.includes('[image: a photo of a mountain trail'))).toBe(true);
    expect(eps.some((e) => e.content.includes('QA-MARKER'))).toBe(false);
    const hits = await t.memory.recall({ query: 'hiking on Saturday' });
    expect(hits[0]?.speaker).toBe('Ben');
  });

  it('reports a file it cannot tell the format of, and an empty parse, as failed without storing anything', async () => {
    t = await tempMemory();
    const unknown = await t.memory.importFile({
      path: '/x/data.bin',
      readHead: async () => new Uint8Array([1, 2, 3]),
      readAll: async () => new Uint8Array(),
    });
    expect(unknown).toMatchObject({ status: 'failed', file: 'data.bin' });
    expect(unknown.status === 'failed' && unknown.reason).toMatch(/--format/);
    const bad = await t.memory.importFile({
      path: '/x/bad.json',
      format: 'locomo',
      readHead: async () => new Uint8Array(),
      readAll: async () => new TextEncoder().encode('{not json'),
    });
    expect(bad).toMatchObject({ status: 'failed' });
    expect(await appContextOf(t.memory).store.forSpace('default').episodes.count()).toBe(0);
  });

  it('redacts credentials in imported turns', async () => {
    t = await tempMemory();
    const line = JSON.stringify({
      role: 'user',
      content: 'my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd ok',
    });
    const r = imported(
      await t.memory.importFile({
        path: '/x/leak.jsonl',
        format: 'openai-jsonl',
        readHead: async () => new Uint8Array(),
        readAll: async () => new TextEncoder().encode(`${line}\n`),
      }),
    );
    expect(r.redacted).toBe(1);
    const [e] = await allEpisodes(t);
    expect(e!.content).not.toContain('sk-proj-');
    expect(e!.content).toContain('[secret:');
  });

  it('reports progress batch by batch up to the total', async () => {
    t = await tempMemory();
    const lines = Array.from({ length: 25 }, (_, i) =>
      JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }),
    );
    const seen: Array<[number, number]> = [];
    imported(
      await t.memory.importFile(
        {
          path: '/x/many.jsonl',
          format: 'openai-jsonl',
          readHead: async () => new Uint8Array(),
          readAll: async () => new TextEncoder().encode(lines.join('\n')),
        },
        { batchSize: 10, onProgress: (p) => seen.push([p.done, p.total]) },
      ),
    );
    expect(seen).toEqual([
      [0, 25],
      [10, 25],
      [20, 25],
      [25, 25],
    ]);
    expect(await appContextOf(t.memory).store.forSpace('default').episodes.count()).toBe(25);
  });
});
