/** Ideas (SEEDS §3.5): one next step for each of up to 3 open problems; they go into the briefing only. */

import { formatId } from '../../core/ids.js';
import { strengthNow } from '../../script/strength.js';
import { LIVE_STATUSES } from '../knowledge-writes.js';
import { NightContext } from '../night-context.js';
import { briefItem } from '../night-log.js';
import { acceptIdeas, buildIdeasPrompt, ideasResponseSchema, MAX_IDEAS } from '../prompts/ideas-prompt.js';
import type { Phase } from './phase.js';

/** Open problems listed in the briefing, strongest first. */
const PROBLEMS_LISTED = 10;

/** Lists the open problems and asks for ideas for the strongest three; nothing is stored as knowledge. */
export const ideasPhase: Phase = async (night) => {
  const { store, space, asOf } = night;
  const problems = (
    await store.forSpace(space).knowledge.list({ kinds: ['open_problem'], statuses: LIVE_STATUSES, limit: 200 })
  )
    .map((k) => ({ k, s: strengthNow(k.strength, k.lastReinforcedAt, asOf) }))
    .sort((a, b) => b.s - a.s || a.k.id - b.k.id)
    .map(({ k }) => k);
  const listed = { openProblems: problems.slice(0, PROBLEMS_LISTED).map(briefItem) };
  if (night.model === undefined || problems.length === 0)
    return { proposals: listed, apply: async () => ({ delta: listed }) };
  const top = problems.slice(0, MAX_IDEAS);
  const input = {
    problems: top.map((k) => ({
      id: formatId('knowledge', k.id),
      content: night.redactor.redact(k.content),
    })),
  };
  const r = await night.ask(
    buildIdeasPrompt(input, { language: night.config.language }),
    ideasResponseSchema,
  );
  if (r.kind !== 'ok')
    return {
      proposals: listed,
      delta: NightContext.missed('ideas', r),
      apply: async () => ({ delta: listed }),
    };
  const accepted = acceptIdeas(r.value, input);
  const original = new Map(top.map((k) => [formatId('knowledge', k.id), k.content]));
  const ideas = accepted.ideas.map((i) => ({
    problem: original.get(i.problemId) ?? i.problem,
    nextStep: night.redactor.restore(i.nextStep),
  }));
  return {
    proposals: { ...listed, ideas },
    delta: { droppedItems: r.dropped + accepted.dropped },
    apply: async () => ({ delta: { ...listed, ideas } }),
  };
};
