import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildContext } from '../../app/injection/context-block.js';
import { prefetch } from '../../app/injection/prefetch.js';
import { openMemory } from '../../boot/open-memory.js';
import { FixedClock } from '../../core/clock.js';
import { buildCombPrompt, combResponseSchema } from '../../sleep/prompts/comb-prompt.js';
import { buildDreamPrompt, dreamResponseSchema } from '../../sleep/prompts/dream-prompt.js';
import { buildDriftPrompt, driftResponseSchema } from '../../sleep/prompts/drift-prompt.js';
import { buildIdeasPrompt, ideasResponseSchema } from '../../sleep/prompts/ideas-prompt.js';
import { buildLibrarianPrompt, librarianResponseSchema } from '../../sleep/prompts/librarian-prompt.js';
import { buildPiiWatchPrompt, piiWatchResponseSchema } from '../../sleep/prompts/pii-watch-prompt.js';
import type { BuiltPrompt } from '../../sleep/prompts/prompt.js';
import type { PromptStep } from '../../sleep/prompts/prompt-texts.js';
import { buildSelfImagePrompt, selfImageResponseSchema } from '../../sleep/prompts/self-image-prompt.js';
import { buildSolidifyPrompt, solidifyResponseSchema } from '../../sleep/prompts/solidify-prompt.js';
import { parseLocomo } from '../locomo.js';
import { tinyLocomo } from '../tiny-locomo.js';
import { mockAnswer } from './mock-night-server.js';
import { renderLifetimeChart, renderLifetimeMarkdown } from './render-lifetime-markdown.js';
import { normaliseForMatch, runLifetimeBench, turnReceived } from './run-lifetime-bench.js';
import { appContextOf } from '../../app/tidepool.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('bench lifetime', () => {
  it('lives a two-session conversation through a few nights in both modes and reports the JSON shape', async () => {
    const dataset = parseLocomo([tinyLocomo()[0]]);
    const { report, info } = await runLifetimeBench({ dataset, datasetName: 'tiny', later: [{ name: '+3d', days: 3 }] });
    expect(Object.keys(report)).toEqual(['dataset', 'questions', 'modes']);
    expect(report.questions).toBe(4);
    expect(report.modes.map((m) => m.nights)).toEqual(['none', 'mock']);
    for (const m of report.modes) {
      expect(Object.keys(m)).toEqual(['nights', 'checkpoints']);
      expect(m.checkpoints.map((c) => c.name)).toEqual(['day0', 'end', '+3d']);
      for (const c of m.checkpoints) {
        expect(Object.keys(c)).toEqual([
          'name', 'recall', 'injected_recall', 'context_tokens', 'prefetch_tokens', 'knowledge', 'episodes', 'night_tokens',
        ]);
        expect(Object.keys(c.recall)).toEqual(['5', '10', '25']);
        for (const v of [...Object.values(c.recall), c.injected_recall]) expect(v).toBeGreaterThanOrEqual(0);
        expect(c.episodes.live + c.episodes.archived).toBe(5);
      }
      // Five turns in two sessions: day0 finds evidence, and something reaches the agent.
      expect(m.checkpoints[0]!.recall['25']).toBeGreaterThan(0);
      expect(m.checkpoints[0]!.night_tokens).toBe(0);
    }
    const none = report.modes[0]!;
    const mock = report.modes[1]!;
    // No model, no tokens; the mock was asked through the openai provider, and its count only grows.
    expect(none.checkpoints.every((c) => c.night_tokens === 0)).toBe(true);
    expect(mock.checkpoints[1]!.night_tokens).toBeGreaterThan(0);
    expect(mock.checkpoints[2]!.night_tokens).toBeGreaterThanOrEqual(mock.checkpoints[1]!.night_tokens);
    // The mock's librarian wrote knowledge; nights ran (session nights and the daily ones) and none failed.
    expect(Object.values(mock.checkpoints[1]!.knowledge).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(info.failures).toEqual([]);
    expect(info.nights.mock?.slept ?? 0).toBeGreaterThan(0);
    expect(info.cachedTokens.mock).toBe(0);
    const md = renderLifetimeMarkdown(report, info);
    expect(md).toContain('| mock | +3d |');
    expect(renderLifetimeChart(report)).toContain('<svg');
  }, 120_000);

  it('counts a turn received when its whole text, or the first 100 characters of a long one, is injected', () => {
    const injected = normaliseForMatch('## Recent\n- Caroline:   I went to a SUPPORT group\nyesterday.\n');
    expect(turnReceived('I went to a support group yesterday.', injected)).toBe(true);
    expect(turnReceived('I went to a support group last week.', injected)).toBe(false);
    const long = `${'a'.repeat(60)} ${'b'.repeat(60)} ${'c'.repeat(60)}`;
    expect(turnReceived(long, normaliseForMatch(`x ${long.slice(0, 120)}…`))).toBe(true);
    expect(turnReceived(long, normaliseForMatch(`x ${long.slice(0, 90)}…`))).toBe(false);
    expect(turnReceived('', injected)).toBe(false);
  });

  it('answers every step with a schema-valid answer that has exactly the schema keys', () => {
    const cases: Array<[PromptStep, BuiltPrompt, z.ZodObject]> = [
      ['solidify', buildSolidifyPrompt({ chunks: [{ id: 'c1', turns: [{ id: 'e1', at: 0, speaker: 'Melanie', role: 'user', text: 'We painted the garden fence yesterday' }] }] }), solidifyResponseSchema],
      ['librarian', buildLibrarianPrompt({ episodes: [{ id: 'e1', at: 0, speaker: 'Melanie', role: 'user', text: 'Melanie loves pottery classes' }], nearest: [] }), librarianResponseSchema],
      ['comb', buildCombPrompt({ narratives: [{ id: 'n1', kind: 'narrative', gesture: 'talked', tags: ['pottery'], scores: { importance: 3, emotional: 2, recurrence: 1, unresolved: 1 } }], profiles: [], selfConcept: [], threads: [] }), combResponseSchema],
      ['drift', buildDriftPrompt({ seed: { id: 'n1', gesture: 'talked', tags: ['a'] }, far: [] }), driftResponseSchema],
      ['dream', buildDreamPrompt({ memories: [{ id: 'n1', gesture: 'talked', tags: ['pottery'] }] }), dreamResponseSchema],
      ['self_image', buildSelfImagePrompt({ knowledge: [{ kind: 'fact', content: 'Topics discussed: pottery' }] }), selfImageResponseSchema],
      ['ideas', buildIdeasPrompt({ problems: [{ id: 'k1', content: 'the kiln is broken' }] }), ideasResponseSchema],
      ['pii_watch', buildPiiWatchPrompt({ texts: [{ id: 'e1', text: 'hello' }] }), piiWatchResponseSchema],
    ];
    for (const [step, prompt, schema] of cases) {
      const answer = mockAnswer(step, prompt.messages[0]!.content) as Record<string, unknown>;
      expect(schema.strict().safeParse(answer).success, step).toBe(true);
      const required = Object.keys(schema.shape).filter((k) => !(schema.shape[k] as z.ZodType).safeParse(undefined).success);
      for (const k of required) expect(Object.keys(answer), `${step} ${k}`).toContain(k);
    }
    // The mock never copies a turn into what it writes: a librarian fact is a digest of words.
    const lib = mockAnswer('librarian', buildLibrarianPrompt({ episodes: [{ id: 'e1', at: 0, speaker: 'Melanie', role: 'user', text: 'Melanie loves pottery classes' }], nearest: [] }).messages[0]!.content) as { proposals: Array<{ content: string; evidence: string[] }> };
    expect(lib.proposals[0]!.content).not.toContain('Melanie loves pottery');
    expect(lib.proposals[0]!.evidence).toEqual(['1']);
  });

  it('builds the context block and prefetch without writing attention when side effects are off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-lifetime-test-'));
    dirs.push(dir);
    const memory = await openMemory({ path: join(dir, 'm.db'), space: 's', embedder: 'none', clock: new FixedClock(Date.UTC(2024, 0, 1)), warn: () => {} });
    try {
      await memory.remember({ text: 'The staging database listens on port 6543' });
      const attention = () => appContextOf(memory).store.forSpace('s').attention.injectedInSession('q1');
      const quiet = await prefetch(appContextOf(memory), { text: 'which port does the staging database use?', session: 'q1' }, { sideEffects: false });
      await buildContext(appContextOf(memory), { session: 'q1' }, { sideEffects: false });
      expect(quiet.text).toContain('6543');
      expect(await attention()).toEqual([]);
      const loud = await prefetch(appContextOf(memory), { text: 'which port does the staging database use?', session: 'q1' });
      expect(loud.text).toBe(quiet.text);
      expect((await attention()).length).toBeGreaterThan(0);
    } finally {
      await memory.close();
    }
  });
});
