/** The briefing with its sections: the stored one of a UTC day, re-rendered from the logs of that day's nights. */
import { utcDay } from '../core/clock.js';
import { TidepoolError } from '../core/errors.js';
import { renderBriefing, type Briefing, type NightLog } from '../script/briefing-render.js';
import { logFromJson, mergeNightLogs } from '../sleep/night-log.js';
import type { AppContext } from './app-context.js';
import { readBriefing } from './read-derived.js';

/** A stored briefing with its structured sections (when its nights' logs are still there). */
export interface BriefingReport {
  day: string;
  headline: string;
  /** Markdown as stored (the human version). */
  body: string;
  today: boolean;
  /** Sections for the agent and the human; null for a briefing whose run logs are gone (e.g. restored elsewhere). */
  sections: Pick<Briefing, 'agent' | 'human'> | null;
}

/**
 * The briefing of `day` (default: the newest). The headline and body are the stored ones; the sections come from
 * the same night logs they were rendered from, so they agree with the headline's numbers.
 */
export async function briefingReport(
  ctx: AppContext,
  input: { day?: string } = {},
): Promise<BriefingReport | { kind: 'none'; message: string }> {
  const r = await readBriefing(ctx, input.day === undefined ? {} : { day: input.day });
  if (r.kind === 'none') return r;
  const runs = await ctx.scope.sleepRuns.runs({ night: r.briefing.day, status: 'done', limit: 50 });
  const logs = runs
    .reverse()
    .map((run) => logFromJson(run.log, ctx.space))
    .filter((l): l is NightLog => l !== undefined);
  const rendered = logs.length > 0 ? renderBriefing(mergeNightLogs(logs)) : undefined;
  return {
    day: r.briefing.day,
    headline: r.briefing.headline,
    body: r.briefing.body,
    today: r.briefing.day === utcDay(ctx.clock.now()),
    sections: rendered ? { agent: rendered.agent, human: rendered.human } : null,
  };
}

/** Like `briefingReport`, but a missing briefing of a given day is `not_found` (scripts can tell by the exit code). */
export async function briefingOfDay(ctx: AppContext, day: string): Promise<BriefingReport> {
  const r = await briefingReport(ctx, { day });
  if ('kind' in r) throw new TidepoolError('not_found', r.message, { field: 'date' });
  return r;
}
