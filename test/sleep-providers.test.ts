/** Nights through the real OpenAI and Anthropic SDKs against mock servers on 127.0.0.1 (the models are unreachable). */
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../src/app/sleep.js';
import type { NightResult } from '../src/sleep/night-types.js';
import {
  startMockAnthropicServer,
  startMockOpenAiServer,
  type MockAnswer,
  type MockLlmServer,
} from './mock-llm-servers.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
let tm: TempMemory | undefined;
let mock: MockLlmServer | undefined;
afterEach(async () => {
  await tm?.cleanup();
  await mock?.close();
  tm = undefined;
  mock = undefined;
});

const usage = { input: 100, output: 20 };
const reply = (v: unknown): MockAnswer => ({ text: JSON.stringify(v), usage });

/** The proposals solidify makes for the turns it reads (turn numbers as the packet shows them). */
const PROPOSALS = [
  { op: 'abstract', kind: 'preference', content: '[person_1] wants release notes sent to [email_2]', evidence: ['1-2'] },
];

/** The answers of a small night, in step order: solidify (narratives and proposals), comb, dream, PII watch. */
function nightAnswers(solidify: MockAnswer[]): MockAnswer[] {
  return [
    ...solidify,
    reply({
      threads: [{ content: 'why do release notes lag?', importance: 2, emotional: 2, unresolved: 3 }],
    }),
    reply({
      symbols: ['letter', 'bell', 'tide'],
      sources: ['n1'],
      dream: 'A letter rang like a bell at high tide',
      reflection: 'I wait for replies',
      emotional: 2,
      unresolved: 2,
    }),
    reply({ names: [] }),
  ];
}

const GOOD_SOLIDIFY = reply({
  narratives: [
    {
      chunk: 'c1',
      // A capitalised word inside a sentence could be a name: the PII watch has a text to read.
      gesture: '[person_1] asked for the release notes by mail from Orbit',
      tags: ['release', 'mail'],
      importance: 3,
      // Weighty enough that comb and dream have something to do (a quiet night skips them).
      emotional: 4,
      unresolved: 2,
    },
  ],
  proposals: PROPOSALS,
});

async function dayWithMarta(
  baseUrlKey: 'openaiBaseUrl' | 'anthropicBaseUrl',
  url: string,
): Promise<TempMemory> {
  const m = await tempMemory({ config: { knownPersons: ['Marta Kowalczyk'], sleep: { [baseUrlKey]: url } } });
  await m.memory.record({
    turns: [
      { role: 'user', content: 'Marta Kowalczyk wants the release notes at marta@example.com', session: 's' },
      {
        role: 'assistant',
        content: 'I will send the release notes to marta@example.com on Friday',
        session: 's',
      },
      { role: 'user', content: 'Good, and keep them short', session: 's' },
    ],
  });
  m.clock.set(T0 + DAY);
  return m;
}

function bodies(m: MockLlmServer): string {
  return m.requests.map((r) => JSON.stringify(r.body)).join('\n');
}

function slept(r: NightResult): Extract<NightResult, { kind: 'slept' }> {
  if (r.kind !== 'slept') throw new Error(`expected a night, got ${r.kind}`);
  return r;
}

describe.each([
  ['OpenAI-compatible', 'openai:gpt-test', 'openaiBaseUrl', startMockOpenAiServer, '/v1/chat/completions'],
  ['Anthropic', 'anthropic:claude-test', 'anthropicBaseUrl', startMockAnthropicServer, '/v1/messages'],
] as const)('a night through the %s client', (_name, spec, key, start, path) => {
  it('runs every model step, counts the usage the server reported, and never sends personal data', async () => {
    mock = await start(nightAnswers([GOOD_SOLIDIFY]));
    tm = await dayWithMarta(key, mock.url);
    const r = slept(await sleep(appContextOf(tm.memory), { model: spec, force: true }));
    expect(mock.requests.map((q) => q.path)).toEqual(Array(4).fill(path));
    expect(mock.pending()).toBe(0);
    expect(r.log.model).toBe(spec);
    expect(r.log.tokens.used).toBe(4 * 120);
    // Solidify read the turns once: its narrative and the knowledge; no librarian call.
    expect(r.log.tokens.byStep).toEqual({ solidify: 120, comb: 120, dream: 120, pii_watch: 120 });
    const sent = bodies(mock);
    expect(sent).not.toMatch(/Marta|Kowalczyk|marta@example\.com/);
    expect(sent).toContain('[person_1] wants the release notes at [email_2]');
    expect((await appContextOf(tm.memory).store.forSpace(tm.memory.space).knowledge.get(1))?.content).toBe(
      'Marta Kowalczyk wants release notes sent to marta@example.com',
    );
    expect(r.briefing.headline).toBe(
      'While you were away: 1 new, 0 reinforced, 0 forgotten from 3 episodes.',
    );
    const run = (await appContextOf(tm.memory).store.forSpace(tm.memory.space).sleepRuns.runs({ limit: 1 }))[0];
    expect([run?.tokensIn, run?.tokensOut]).toEqual([400, 80]);
  });

  it('retries an invalid answer once through the client, then skips the step and reports it', async () => {
    mock = await start([
      { text: 'Here are my thoughts, no JSON today.', usage },
      reply({ narratives: [], proposals: 'none' }),
    ]);
    tm = await dayWithMarta(key, mock.url);
    const r = slept(await sleep(appContextOf(tm.memory), { model: spec, force: true }));
    // Nothing was solidified, so the quiet night asks no other step.
    expect(mock.requests).toHaveLength(2);
    expect(JSON.stringify(mock.requests[1]?.body)).toContain('Your answer was rejected');
    expect(r.log.skipped).toEqual([{ step: 'solidify', reason: expect.stringMatching(/^invalid_answer/) }]);
    expect(
      r.briefing.agent.warnings.some((w) => w.startsWith('Step solidify was skipped: invalid_answer')),
    ).toBe(true);
    expect(await appContextOf(tm.memory).store.forSpace(tm.memory.space).knowledge.count()).toBe(0);
    expect(await appContextOf(tm.memory).store.forSpace(tm.memory.space).episodes.pendingTimes(10)).toHaveLength(3);
  });
});
