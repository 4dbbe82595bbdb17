import { describe, expect, it } from 'vitest';
import { briefingHeadline, emptyNightLog, renderBriefing, type NightLog } from './briefing-render.js';

const START = Date.UTC(2026, 8, 30, 2, 17);

function fullLog(): NightLog {
  const log = emptyNightLog('default', START, 'openai:gpt-4o-mini', 10_000);
  log.finishedAt = START + 90_000;
  log.episodes = 23;
  log.created = [
    { id: 11, kind: 'preference', content: '[person_1] prefers short release notes' },
    { id: 12, kind: 'fact', content: 'The team deploys on Fridays' },
    { id: 13, kind: 'open_problem', content: 'Flaky end-to-end tests' },
    { id: 14, kind: 'procedure', content: 'Recipe: search → read → edit' },
  ];
  log.reinforced = [
    { id: 3, content: 'a' },
    { id: 4, content: 'b' },
  ];
  log.forgotten = [{ id: 5, content: 'stale' }];
  log.promoted = [{ id: 6, content: 'Uses pnpm' }];
  log.superseded = [
    { old: { id: 7, content: 'Deploys on Mondays' }, by: { id: 12, content: 'The team deploys on Fridays' } },
  ];
  log.quarantined = [
    {
      entry: { id: 15, content: 'The user does not like coffee' },
      conflictsWith: { id: 2, content: 'The user likes coffee' },
      reason: 'negation',
    },
  ];
  log.openProblems = [{ id: 13, content: 'Flaky end-to-end tests' }];
  log.ideas = [{ problem: 'Flaky end-to-end tests', nextStep: 'Run it 50 times with tracing' }];
  log.gaps = [{ topic: 'billing', mentions: 5, degree: 0 }];
  log.pii = { names: 2, replacements: 7, overLimit: 0 };
  log.skipped = [{ step: 'dream', reason: 'invalid_answer: no JSON' }];
  log.deferred = 3;
  log.rejected = 1;
  log.tokens.used = 6_500;
  return log;
}

describe('briefingHeadline', () => {
  it('has exactly the Tulimoa form', () => {
    expect(briefingHeadline(fullLog())).toBe(
      'While you were away: 4 new, 2 reinforced, 1 forgotten from 23 episodes.',
    );
  });
});

describe('renderBriefing', () => {
  it('dates the briefing by the UTC day the night finished', () => {
    const log = fullLog();
    log.finishedAt = Date.UTC(2026, 9, 1, 0, 0, 1);
    expect(renderBriefing(log).day).toBe('2026-10-01');
    expect(renderBriefing(fullLog()).day).toBe('2026-09-30');
  });

  it('fills the agent sections only from the log', () => {
    const b = renderBriefing(fullLog());
    expect(b.agent.newKnowledge).toEqual([
      'preference: [person_1] prefers short release notes',
      'fact: The team deploys on Fridays',
      'open_problem: Flaky end-to-end tests',
      'procedure: Recipe: search → read → edit',
      'updated: The team deploys on Fridays (replaces: Deploys on Mondays)',
      'now reliable: Uses pnpm',
    ]);
    expect(b.agent.openProblems).toEqual(['Flaky end-to-end tests']);
    expect(b.agent.needsReview).toEqual([
      '"The user does not like coffee" contradicts reliable "The user likes coffee" (negation) [#15]',
    ]);
    expect(b.agent.ideas).toEqual(['Flaky end-to-end tests → Run it 50 times with tracing']);
    expect(b.agent.piiWatch).toBe(
      'The PII night watch found 2 names of private people; the rows are listed under Needs review and the names are hidden from the model from now on.',
    );
    expect(b.agent.warnings).toEqual([
      'Step dream was skipped: invalid_answer: no JSON',
      "3 work packets did not fit tonight's token budget; they wait for the next night.",
      '1 proposal failed the format, secret or scope checks; not applied.',
    ]);
    expect(b.agent).not.toHaveProperty('worthExploring');
  });

  it('gives humans the same plus topics worth exploring, and markdown of both', () => {
    const b = renderBriefing(fullLog());
    expect(b.human).toMatchObject(b.agent);
    expect(b.human.worthExploring).toEqual(['billing (mentioned 5 times, 0 links)']);
    expect(b.markdown).toMatch(
      /^# Briefing 2026-09-30\n\nWhile you were away: 4 new, 2 reinforced, 1 forgotten from 23 episodes\.\n/,
    );
    expect(b.markdown).toContain('## Needs review\n\n- "The user does not like coffee"');
    expect(b.markdown).toContain('## Worth exploring\n\n- billing');
    expect(b.agentMarkdown).not.toContain('Worth exploring');
  });

  it('renders a quiet night with model none: zero counts, the no-model warning, no empty sections', () => {
    const log = emptyNightLog('default', START, 'none', 8_000);
    log.episodes = 10;
    const b = renderBriefing(log);
    expect(b.headline).toBe('While you were away: 0 new, 0 reinforced, 0 forgotten from 10 episodes.');
    expect(b.agent).toEqual({
      newKnowledge: [],
      openProblems: [],
      warnings: ['No model is configured: only the deterministic steps ran.'],
      needsReview: [],
      ideas: [],
      piiWatch: null,
    });
    expect(b.markdown).toBe(
      '# Briefing 2026-09-30\n\nWhile you were away: 0 new, 0 reinforced, 0 forgotten from 10 episodes.\n\n## Warnings\n\n- No model is configured: only the deterministic steps ran.\n',
    );
  });

  it('cuts long entries to one line of 200 characters', () => {
    const log = emptyNightLog('default', START, 'none', 8_000);
    log.created = [{ id: 1, kind: 'fact', content: `line one\n${'x'.repeat(500)}` }];
    const [line] = renderBriefing(log).agent.newKnowledge;
    expect(line).toMatch(/^fact: line one x+…$/);
    expect(line?.length).toBe('fact: '.length + 200);
  });
});
