/** The librarian through a whole night: each operation, quarantine, placeholders, bad answers and refused proposals. */
import { afterEach, describe, expect, it } from 'vitest';
import { know } from '../src/app/know.js';
import { sleep, type SleepOptions } from '../src/app/sleep.js';
import type { Model, ModelRequest, ModelResponse } from '../src/sleep/llm/model.js';
import { ScriptedModel, type ScriptedAnswer } from '../src/sleep/llm/scripted-model.js';
import { estimateRequestTokens, estimateTokens } from '../src/sleep/llm/token-estimate.js';
import type { NightResult } from '../src/sleep/night-types.js';
import { parsePacket } from '../src/sleep/prompts/packet-text.js';
import { ResponderModel } from './sleep-fixtures.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
let tm: TempMemory;
afterEach(async () => tm?.cleanup());

/** A scripted model: the librarian's answers as given, `{}` (nothing to do) for any other step. */
function librarian(...answers: ScriptedAnswer[]): ScriptedModel {
  return new ScriptedModel({ librarian: answers, pii_watch: Array(5).fill('{"names":[]}') as string[] });
}

function json(v: unknown): string {
  return JSON.stringify(v);
}

async function turns(...texts: string[]): Promise<void> {
  await tm.memory.record({
    turns: texts.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, session: 'work' })),
  });
}

async function night(
  model: Model,
  opts: SleepOptions = {},
): Promise<Extract<NightResult, { kind: 'slept' }>> {
  tm.clock.advance(DAY);
  const r = await sleep(appContextOf(tm.memory), { modelInstance: model, force: true, ...opts });
  if (r.kind !== 'slept') throw new Error(`expected a night, got ${r.kind}`);
  return r;
}

const store = () => appContextOf(tm.memory).store;
const space = () => tm.memory.space;

describe('librarian operations', () => {
  it('abstracts a group into provisional knowledge with its evidence and consolidates the group', async () => {
    tm = await tempMemory();
    await turns(
      'Where does staging listen now?',
      'The staging database listens on port 6543 since the move.',
    );
    const model = librarian(
      json({
        proposals: [
          {
            op: 'abstract',
            kind: 'fact',
            content: 'The staging database listens on port 6543',
            evidence: ['e1', 'e2'],
            key: 'staging.db.port',
          },
        ],
      }),
    );
    const r = await night(model);
    const k = await store().forSpace(space()).knowledge.getLiveByKey('staging.db.port');
    expect(k).toMatchObject({
      status: 'provisional',
      source: 'sleep',
      occurrences: 1,
      evidence: { episodes: [1, 2], narratives: [] },
      createdAt: T0 + DAY,
    });
    expect((await store().forSpace(space()).episodes.getMany([1, 2])).map((e) => e.consolidatedAt)).toEqual([
      T0 + DAY,
      T0 + DAY,
    ]);
    expect(r.briefing.headline).toBe(
      'While you were away: 1 new, 0 reinforced, 0 forgotten from 2 episodes.',
    );
    expect(r.briefing.agent.newKnowledge).toEqual(['fact: The staging database listens on port 6543']);
  });

  it('counts a statement it already knows as one more occurrence, not a new entry', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'The staging database listens on port 6543', durable: false });
    await turns('staging database port?', 'The staging database listens on port 6543.');
    const before = (await store().forSpace(space()).knowledge.get(1))!;
    const r = await night(
      librarian(
        json({
          proposals: [
            {
              op: 'abstract',
              kind: 'fact',
              content: 'the staging database listens on port 6543',
              evidence: ['e2', 'e3'],
            },
          ],
        }),
      ),
    );
    const after = (await store().forSpace(space()).knowledge.get(1))!;
    expect(after.occurrences).toBe(2);
    expect(after.evidence.episodes).toEqual([1, 2, 3]);
    expect(after.lastReinforcedAt).toBe(T0 + DAY);
    expect(after.strength).toBeGreaterThan(before.strength * 0.98);
    expect(await store().forSpace(space()).knowledge.count()).toBe(1);
    expect(r.briefing.headline).toBe(
      'While you were away: 0 new, 1 reinforced, 0 forgotten from 2 episodes.',
    );
  });

  it('merges duplicates into one stronger entry and keeps the old ones as superseded history', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'Deploys happen on Fridays' });
    await tm.memory.remember({ text: 'We deploy every Friday afternoon' });
    await turns('When do we deploy?', 'We deploy on Friday, as always.');
    const r = await night(
      librarian(
        json({
          proposals: [
            {
              op: 'merge',
              ids: ['k1', 'k2'],
              kind: 'procedure',
              content: 'The team deploys on Friday afternoons',
            },
          ],
        }),
      ),
    );
    const [k1, k2, k3] = await store().forSpace(space()).knowledge.getMany([1, 2, 3]);
    expect([k1?.status, k2?.status, k1?.supersededBy, k2?.supersededBy]).toEqual([
      'superseded',
      'superseded',
      3,
      3,
    ]);
    expect(k1?.validTo).toBe(T0 + DAY);
    expect(k3).toMatchObject({
      kind: 'procedure',
      status: 'provisional',
      occurrences: 2,
      content: 'The team deploys on Friday afternoons',
    });
    expect(k3?.evidence.episodes).toEqual([1, 2]);
    expect(r.log.counts.merged).toBe(1);
    expect((await know(appContextOf(tm.memory), { query: 'deploy Friday' })).map((e) => e.id)).toEqual(['k3']);
    expect(r.briefing.headline).toBe(
      'While you were away: 0 new, 1 reinforced, 0 forgotten from 2 episodes.',
    );
  });

  it('supersedes a provisional entry (history kept, key carried over) and links a new entry by its ref', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'The office is in Berlin', key: 'office.city' });
    await tm.memory.remember({ text: 'The office has a rooftop terrace' });
    await turns('Did the office move?', 'Yes, the office is in Hamburg now, same rooftop terrace idea.');
    const r = await night(
      librarian(
        json({
          proposals: [
            {
              op: 'supersede',
              old: 'k1',
              kind: 'fact',
              content: 'The office is in Hamburg',
              evidence: ['e4'],
              ref: 'new',
            },
            { op: 'link', from: 'new', to: 'k2', type: 'refers_to' },
          ],
        }),
      ),
    );
    const old = (await store().forSpace(space()).knowledge.get(1))!;
    const live = (await store().forSpace(space()).knowledge.getLiveByKey('office.city'))!;
    expect(old).toMatchObject({ status: 'superseded', supersededBy: live.id });
    expect(live).toMatchObject({ content: 'The office is in Hamburg', status: 'provisional' });
    expect((await store().forSpace(space()).knowledge.links(live.id)).map((l) => [l.fromId, l.toId, l.type])).toEqual([
      [live.id, 2, 'refers_to'],
    ]);
    expect(r.log.superseded.map((s) => [s.old.id, s.by.id])).toEqual([[1, live.id]]);
    expect(r.log.counts.linked).toBe(1);
    expect(r.briefing.agent.newKnowledge).toContain(
      'updated: The office is in Hamburg (replaces: The office is in Berlin)',
    );
  });

  it('quarantines a proposal that would replace or contradict reliable knowledge, keeping the reliable entry', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'The office is in Berlin', key: 'office.city' });
    await tm.memory.remember({ text: 'Ana drinks coffee every morning' });
    await store().forSpace(space()).knowledge.setStatus([1, 2], 'reliable', T0);
    await turns(
      'Ana said something odd',
      'Ana does not drink coffee every morning anymore, and the office is in Paris.',
    );
    const r = await night(
      librarian(
        json({
          proposals: [
            { op: 'supersede', old: 'k1', kind: 'fact', content: 'The office is in Paris' },
            {
              op: 'abstract',
              kind: 'preference',
              content: 'Ana does not drink coffee every morning',
              evidence: ['e4'],
            },
          ],
        }),
      ),
    );
    const rows = await store().forSpace(space()).knowledge.list({ statuses: ['quarantined'], limit: 10 });
    expect(rows.map((k) => k.content).sort()).toEqual([
      'Ana does not drink coffee every morning',
      'The office is in Paris',
    ]);
    expect((await store().forSpace(space()).knowledge.getMany([1, 2])).map((k) => k.status)).toEqual([
      'reliable',
      'reliable',
    ]);
    expect(r.log.quarantined.map((q) => q.conflictsWith.id).sort()).toEqual([1, 2]);
    expect(r.briefing.agent.needsReview).toHaveLength(2);
    expect(r.briefing.headline).toMatch(/^While you were away: 0 new, 0 reinforced/);
    // Quarantined knowledge stays out of recall and know (DESIGN §3).
    expect((await know(appContextOf(tm.memory), { query: 'office Paris' })).map((e) => e.content)).not.toContain(
      'The office is in Paris',
    );
    expect((await tm.memory.recall({ query: 'coffee' })).map((h) => h.text)).not.toContain(
      'Ana does not drink coffee every morning',
    );
  });
});

/** A model that answers the librarian from what it was shown, and records every request. */
class EchoLibrarian implements Model {
  readonly name = 'echo';
  readonly requests: ModelRequest[] = [];
  async complete(req: ModelRequest): Promise<ModelResponse> {
    this.requests.push(req);
    // The librarian's packet: numbered turn lines (packet-text.ts).
    const first = req.step === 'librarian' ? parsePacket(req.messages[0]!.content).blocks[0]?.turns[0] : undefined;
    const text =
      req.step === 'librarian'
        ? json({
            proposals: [
              {
                op: 'abstract',
                kind: 'entity',
                content: `Contact: ${first!.text}`,
                evidence: [String(first!.n)],
              },
            ],
          })
        : req.step === 'pii_watch'
          ? '{"names":[]}'
          : req.step === 'solidify'
            ? '{"narratives":[],"proposals":[]}'
            : '{}';
    return { text, inputTokens: estimateRequestTokens(req), outputTokens: estimateTokens(text) };
  }
}

describe('the librarian and personal data', () => {
  it('quarantines a changed value the model abstracts without any negation (staging port 6543 → 5433)', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'The staging Postgres listens on port 6543' });
    await store().forSpace(space()).knowledge.setStatus([1], 'reliable', T0);
    await turns('Heads up about staging', 'The staging Postgres moved to port 5433 after the upgrade.');
    const r = await night(
      librarian(json({ proposals: [{ op: 'abstract', kind: 'fact', content: 'The staging Postgres moved to port 5433', evidence: ['e3'] }] })),
    );
    expect(r.log.quarantined).toEqual([
      expect.objectContaining({ conflictsWith: expect.objectContaining({ id: 1 }), reason: 'contradicts (value_change)' }),
    ]);
    expect((await store().forSpace(space()).knowledge.get(1))?.status).toBe('reliable');
    expect((await tm.memory.reviewList()).map((i) => [i.content, i.against?.id])).toEqual([['The staging Postgres moved to port 5433', 'k1']]);
  });

  it('shows the model placeholders only and stores the real values, with one placeholder per person across nights', async () => {
    tm = await tempMemory({ config: { knownPersons: ['Erika Mustermann'] } });
    await turns('Erika Mustermann wrote from erika@example.com, call her on +49 30 1234567');
    const model = new EchoLibrarian();
    await night(model);
    const shown = model.requests.map((r) => r.messages.map((m) => m.content).join('\n')).join('\n');
    expect(shown).not.toMatch(/Erika|Mustermann|erika@example\.com|1234567/);
    expect(shown).toContain('[person_1] wrote from [email_2], call her on [phone_3]');
    const k = (await store().forSpace(space()).knowledge.get(1))!;
    expect(k.content).toBe(
      'Contact: Erika Mustermann wrote from erika@example.com, call her on +49 30 1234567',
    );
    expect(await store().forSpace(space()).state.get('sleep:pii')).toMatchObject({
      entries: [
        { placeholder: '[person_1]', value: 'Erika Mustermann' },
        { placeholder: '[email_2]' },
        { placeholder: '[phone_3]' },
      ],
    });
    await turns('Ana asked whether Erika Mustermann is back');
    const second = new EchoLibrarian();
    await night(second);
    const text = second.requests.find((r) => r.step === 'librarian')!.messages[0]!.content;
    expect(text).toContain('Ana asked whether [person_1] is back');
  });
});

describe('bad answers and refused proposals', () => {
  it('retries a bad answer once, then skips the group, reports it and leaves its episodes for the next night', async () => {
    tm = await tempMemory();
    await turns('We ship on Friday', 'Friday it is.');
    const model = librarian('sure, here you go', json({ proposals: [{ op: 'explode' }] }));
    const r = await night(model);
    const calls = model.calls.filter((c) => c.step === 'librarian');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.request.messages.at(-1)!.content).toMatch(/^Your answer was rejected/);
    expect(r.log.skipped).toEqual([{ step: 'librarian', reason: expect.stringMatching(/^invalid_answer/) }]);
    expect(r.briefing.agent.warnings.some((w) => w.startsWith('Step librarian was skipped'))).toBe(true);
    expect(r.briefing.headline).toBe(
      'While you were away: 0 new, 0 reinforced, 0 forgotten from 0 episodes.',
    );
    expect(await store().forSpace(space()).episodes.pendingTimes(10)).toHaveLength(2);
    const next = await night(
      librarian(
        json({
          proposals: [{ op: 'abstract', kind: 'fact', content: 'We ship on Friday', evidence: ['e1'] }],
        }),
      ),
    );
    expect(next.briefing.headline).toBe(
      'While you were away: 1 new, 0 reinforced, 0 forgotten from 2 episodes.',
    );
  });

  it('refuses proposals outside the packet or carrying a credential, counts them, and applies the rest', async () => {
    tm = await tempMemory();
    await turns('The deploy key lives in the vault under ci/deploy', 'Noted, the vault path is ci/deploy.');
    const r = await night(
      librarian(
        json({
          proposals: [
            { op: 'abstract', kind: 'fact', content: 'Someone else said something', evidence: ['e999'] },
            {
              op: 'abstract',
              kind: 'fact',
              content: 'The deploy key is sk-proj-4f9Kq2LmN8xZ7vB3tR6yW1pD5sH0jC9aE2uG7iO4kM1nQ8rT',
              evidence: ['e1'],
            },
            { op: 'merge', ids: ['k40', 'k41'], kind: 'fact', content: 'merged' },
            {
              op: 'abstract',
              kind: 'fact',
              content: 'The deploy key lives in the vault under ci/deploy',
              evidence: ['e1', 'e2'],
            },
          ],
        }),
      ),
    );
    expect(r.log.rejected).toBe(3);
    expect((await store().forSpace(space()).knowledge.list({ limit: 10 })).map((k) => k.content)).toEqual([
      'The deploy key lives in the vault under ci/deploy',
    ]);
    expect(r.briefing.agent.warnings).toContain(
      '3 proposals failed the format, secret or scope checks; not applied.',
    );
  });

  it('reports the proposals of a dry run and changes nothing', async () => {
    tm = await tempMemory();
    await turns('We ship on Friday', 'Friday it is.');
    tm.clock.advance(DAY);
    const r = await sleep(appContextOf(tm.memory), {
      modelInstance: librarian(
        json({
          proposals: [{ op: 'abstract', kind: 'fact', content: 'We ship on Friday', evidence: ['e1'] }],
        }),
      ),
      dryRun: true,
      force: true,
    });
    if (r.kind !== 'dry_run') throw new Error(r.kind);
    expect(r.units.find((u) => u.step === 'librarian')?.proposals).toMatchObject({
      accepted: [{ op: 'abstract', content: 'We ship on Friday' }],
      rejected: [],
    });
    expect(await store().forSpace(space()).knowledge.count()).toBe(0);
    expect(await store().forSpace(space()).episodes.pendingTimes(10)).toHaveLength(2);
    expect(await store().forSpace(space()).sleepRuns.runs({ limit: 5 })).toEqual([]);
    expect(await store().forSpace(space()).derived.latestBriefing()).toBeUndefined();
  });
});

describe('what the librarian sees and can confirm', () => {
  it('shows who said each turn, with its role, date and time, and the keys of the entries it may touch', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'Caroline plays chess', key: 'caroline.hobby', durable: false });
    await tm.memory.record({
      turns: [
        { role: 'user', speaker: 'Caroline', content: 'I won my first chess tournament!', session: 's', at: T0 - 2 * DAY },
        { role: 'user', speaker: 'Melanie', content: 'Congratulations on the chess win!', session: 's', at: T0 - 2 * DAY + 60_000 },
      ],
    });
    const model = new ResponderModel();
    await night(model);
    const seen = model.seen.find((s) => s.step === 'librarian')!.request.messages[0]!.content;
    expect(seen).toBe(
      [
        'who (user): C=Caroline M=Melanie',
        'knowledge:',
        'k1 fact provisional key=caroline.hobby Caroline plays chess',
        '@ 2026-10-30 12:00',
        '1 C I won my first chess tournament!',
        '2 M Congratulations on the chess win!',
      ].join('\n'),
    );
    // The evidence the responder cites by turn number became the episodes' ids.
    const k = (await store().forSpace(space()).knowledge.list({ limit: 10 })).find((e) => e.content.startsWith('Observed'))!;
    expect(k.evidence.episodes).toEqual([2, 3]);
  });

  it('counts a confirmation as one more occurrence, so a fact repeated over three nights becomes reliable', async () => {
    tm = await tempMemory();
    await turns('We deploy every Friday afternoon', 'Right, deploys happen on Friday afternoons.');
    await night(
      librarian(json({ proposals: [{ op: 'abstract', kind: 'fact', content: 'The team deploys on Friday afternoons', evidence: ['e1', 'e2'] }] })),
    );
    for (const n of [2, 3]) {
      await turns(`Reminder ${n}: the deploy is on Friday afternoon`, 'Yes, Friday afternoon deploy as always.');
      const ids = [2 * n - 1, 2 * n].map((i) => `e${i}`);
      const model = librarian(json({ proposals: [{ op: 'confirm', id: 'k1', evidence: ids }] }));
      const r = await night(model);
      // The entry was shown to the librarian, so it could be confirmed; each confirmation is one occurrence.
      expect(model.calls.find((c) => c.step === 'librarian')!.request.messages[0]!.content).toMatch(/^k1 fact provisional /m);
      expect(r.log.reinforced.map((k) => k.id)).toEqual([1]);
      expect((await store().forSpace(space()).knowledge.get(1))?.occurrences).toBe(n);
    }
    // Three occurrences and a week old: the lifecycle makes it reliable.
    tm.clock.advance(7 * DAY);
    const r = await sleep(appContextOf(tm.memory), { model: 'none', force: true });
    if (r.kind !== 'slept') throw new Error(r.kind);
    expect(await store().forSpace(space()).knowledge.get(1)).toMatchObject({ occurrences: 3, status: 'reliable' });
  });

  it('takes an answer of the wrong shape as a bad answer: retried once, then the episodes wait unconsolidated', async () => {
    tm = await tempMemory();
    await turns('We ship on Friday', 'Friday it is.');
    const model = librarian(json({ wrong: true }), json({ proposals: [], note: 'extra' }));
    const r = await night(model);
    expect(model.calls.filter((c) => c.step === 'librarian')).toHaveLength(2);
    expect(r.log.skipped).toEqual([{ step: 'librarian', reason: expect.stringMatching(/^invalid_answer/) }]);
    expect(r.log.episodes).toBe(0);
    expect((await store().forSpace(space()).episodes.getMany([1, 2])).map((e) => e.consolidatedAt)).toEqual([null, null]);
  });
});
