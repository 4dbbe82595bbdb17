/** A working week lived with nights and no model: repeated statements, a moved port, recipes and gaps (issue 21). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGaps } from '../src/app/read-derived.js';
import { listReview, review } from '../src/app/review.js';
import { sleep } from '../src/app/sleep.js';
import type { RecordTurn } from '../src/core/schemas.js';
import type { Knowledge } from '../src/core/types.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
const MONDAY = T0 - 14 * DAY;

/** One day's session: the team's talk and the shell commands run through Claude Code's Bash tool, a minute apart. */
function day(d: number, talk: Array<[string, string]>, commands: string[]): RecordTurn[] {
  const at = (i: number) => MONDAY + d * DAY + i * 60_000;
  const turns: RecordTurn[] = talk.map(([speaker, content], i) => ({ role: 'user', speaker, content, session: `day${d}`, at: at(i) }));
  commands.forEach((command, i) =>
    turns.push({
      role: 'tool',
      kind: 'tool_call',
      tool: 'Bash',
      ok: true,
      content: `Bash ${JSON.stringify({ command, description: 'step' })}`,
      session: `day${d}`,
      at: at(talk.length + i),
    }),
  );
  return turns;
}

// Every day starts with the same look around (git status, npm run lint); Monday and Thursday ship a release.
const LOOK = ['git status', 'npm run lint'];
const SHIP = ['npm run build', 'npm test', 'npm publish --access public'];
const WEEK: RecordTurn[][] = [
  day(0, [
    ['Ana', 'Morning! Ana prefers squash merges on the release branch.'],
    ['Ben', 'Noted. The flaky checkout test failed twice on CI again.'],
    ['Ana', 'The checkout test waits for the payment mock, that is the flake.'],
    ['Ben', 'I will pin the mock version and rerun the pipeline.'],
  ], [...LOOK, ...SHIP]),
  day(1, [
    ['Ben', 'The staging Postgres moved to port 5433 after the upgrade.'],
    ['Ana', 'Good. Did the schema migration run on staging?'],
    ['Ben', 'The schema migration ran, but the migration log shows a lock wait.'],
    ['Ana', 'Lock waits during a migration are expected with the old index.'],
  ], [...LOOK, 'git diff']),
  day(2, [
    ['Ana', 'Reminder: Ana prefers squash merges on the release branch.'],
    ['Ben', 'The migration for invoices needs a second pass on staging.'],
    ['Ana', 'Then split the migration in two steps and keep the lock short.'],
    ['Ben', 'Will do; the checkout test is stable since the pinned mock.'],
  ], [...LOOK, 'git log --oneline -5']),
  day(3, [
    ['Ben', 'Heads up: the staging Postgres moved to port 5433 after the upgrade.'],
    ['Ana', 'The invoices migration finished overnight without lock waits.'],
    ['Ben', 'Release notes are ready; shipping version 2.4 today.'],
    ['Ana', 'Great, I will announce the release in the team channel.'],
  ], ['git pull', ...SHIP]),
  day(4, [
    ['Ana', 'Retro: the migration plan worked, the checkout flake is gone.'],
    ['Ben', 'Next week we look at the search latency on the dashboard.'],
    ['Ana', 'Agreed. I will collect the slow queries from the logs.'],
    ['Ben', 'Send the slow query list to ben.okafor@example.com before Monday.'],
  ], LOOK),
];

describe('a week of nights without a model', () => {
  let tm: TempMemory;
  let reliablePort: Knowledge;

  beforeAll(async () => {
    tm = await tempMemory();
    const m = tm.memory;
    const r = await m.remember({ text: 'The staging Postgres listens on port 6543', subject: 'staging' });
    await appContextOf(m).store.forSpace(m.space).knowledge.setStatus([Number(r.id.slice(1))], 'reliable', MONDAY - DAY);
    reliablePort = (await appContextOf(m).store.forSpace(m.space).knowledge.get(Number(r.id.slice(1))))!;
    for (const [d, turns] of WEEK.entries()) {
      await m.record({ turns }, { source: 'import', durable: true });
      // The night after each working day, then the script layer as `serve` runs it.
      expect(await sleep(appContextOf(m), { model: 'none', now: MONDAY + d * DAY + 14 * 3_600_000 })).toMatchObject({ kind: 'slept' });
      await m.scriptAll();
    }
  }, 120_000);

  afterAll(async () => tm?.cleanup());

  const live = async () =>
    appContextOf(tm.memory).store.forSpace(tm.memory.space).knowledge.list({ statuses: ['provisional', 'reliable', 'quarantined'], limit: 100 });

  it('a statement said on Monday and Wednesday becomes provisional knowledge linked to both turns', async () => {
    const facts = (await live()).filter((k) => k.tags.includes('repeated'));
    const squash = facts.find((k) => /squash merges/.test(k.content));
    expect(squash).toMatchObject({ kind: 'fact', status: 'provisional', occurrences: 2 });
    const said = await appContextOf(tm.memory).store.forSpace(tm.memory.space).episodes.getMany(squash!.evidence.episodes);
    expect(said.map((e) => e.session).sort()).toEqual(['day0', 'day2']);
    // Small talk and one-day remarks stay episodes.
    expect(facts.every((k) => !/Great|Morning|Agreed/.test(k.content))).toBe(true);
  });

  it('the moved port contradicts the reliable port and waits in Needs review; approving it replaces the old value', async () => {
    const items = (await listReview(appContextOf(tm.memory))).filter((i) => i.personalData === undefined);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      content: expect.stringContaining('moved to port 5433'),
      reason: 'contradicts reliable knowledge (value_change)',
      against: { id: `k${reliablePort.id}`, content: 'The staging Postgres listens on port 6543', status: 'reliable' },
    });
    // Quarantined entries stay out of recall.
    const hits = await tm.memory.recall({ query: 'staging Postgres port', layers: ['knowledge'] });
    expect(hits.map((h) => h.id)).toEqual([`k${reliablePort.id}`]);
    const verdict = await review(appContextOf(tm.memory), { id: items[0]!.id, verdict: 'approve' });
    expect(verdict).toMatchObject({ kind: 'approved', replaced: `k${reliablePort.id}` });
    expect((await appContextOf(tm.memory).store.forSpace(tm.memory.space).knowledge.get(reliablePort.id))?.status).toBe('superseded');
  });

  it('an e-mail address in clear waits in Needs review, in clear, as its turn and the narrative quoting it; rejecting erases them', async () => {
    const flagged = (await listReview(appContextOf(tm.memory))).filter((i) => i.personalData !== undefined);
    expect(flagged.map((i) => i.kind).sort()).toEqual(['episode', 'narrative']);
    for (const item of flagged) {
      expect(item).toMatchObject({ personalData: ['email'], reason: expect.stringContaining('an e-mail address in clear') });
      expect(item.content).toContain('ben.okafor@example.com');
      expect(item.content).not.toMatch(/\[(email|person)_\d+\]/);
    }
    for (const item of flagged)
      expect(await review(appContextOf(tm.memory), { id: item.id, verdict: 'reject' })).toEqual({ kind: 'rejected', id: item.id, status: 'forgotten' });
    const turn = flagged.find((i) => i.kind === 'episode')!;
    expect(await appContextOf(tm.memory).store.forSpace(tm.memory.space).episodes.getMany([Number(turn.id.slice(1))])).toEqual([]);
    expect((await listReview(appContextOf(tm.memory))).filter((i) => i.personalData !== undefined)).toEqual([]);
    const hits = await tm.memory.recall({ query: 'ben.okafor@example.com', limit: 50 });
    expect(hits.filter((h) => h.text.includes('okafor'))).toEqual([]);
  });

  it('only the release sequence is a recipe, with the commands it ran; the daily git status → npm run lint is not', async () => {
    const recipes = (await live()).filter((k) => k.tags.includes('recipe'));
    expect(recipes.map((k) => k.key)).toEqual(['recipe:Bash: npm run build>Bash: npm test>Bash: npm publish']);
    expect(recipes[0]!.content).toContain('npm publish --access public');
    expect(recipes[0]!.meta.recipe).toMatchObject({ sessions: 2 });
  });

  it('gaps name topics the week kept talking about that no knowledge covers', async () => {
    const { gaps } = await readGaps(appContextOf(tm.memory), {});
    // The checkout flake came up on Monday, Wednesday and Friday; nobody wrote down what was learned about it.
    expect(gaps.find((g) => g.topic === 'checkout')).toMatchObject({ degree: 0 });
    expect(gaps.every((g) => g.mentions >= 3 && g.degree <= 1)).toBe(true);
    expect(gaps.every((g) => !/^\[\w+_\d+\]$/.test(g.topic))).toBe(true);
  });
});
