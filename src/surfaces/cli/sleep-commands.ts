/** CLI commands of the nightly sleep: sleep, briefing, review, self, gaps. */
import type { Command } from 'commander';
import { TidepoolError } from '../../core/errors.js';
import {
  intOption,
  isoMinute,
  print,
  withCommon,
  withMemory,
  type CliDeps,
  type CommonOptions,
} from './cli-deps.js';

// The night's renderers (and the module's model prompts and schemas) load only when `sleep` runs, so that `recall`
// and the hooks do not pay for them at start-up; the facade loads the use cases the same way.

type Opts = CommonOptions & Record<string, string | boolean | undefined>;

/** Registers sleep, briefing, review, self and gaps. */
export function registerSleepCommands(program: Command, deps: CliDeps): void {
  withCommon(
    program
      .command('sleep')
      .description('run one night of consolidation now (resumes an interrupted night first)')
      .option(
        '--model <spec>',
        'none | openai:<model> | anthropic:<model> (default: config sleep.model); sampling and agent work under `serve` only',
      )
      .option(
        '--now <time>',
        'run the night as of this time (ISO 8601): tests, catching up on a missed night',
      )
      .option('--dry-run', 'ask the model and report every proposal, change nothing')
      .option('--force', 'sleep even when the wake rule (sleep.wake: 5 episodes, or one waiting 3 days) lets the space stay awake, and ask the model even about a small day (< sleep.minPacketTurns episodes)'),
  ).action(async (o: Opts) => {
    await withMemory(deps, o, async (m) => {
      const { describeNight, describeWake } = await import('../../app/sleep.js');
      const r = await m.sleep({
        ...(typeof o.model === 'string' ? { model: o.model } : {}),
        ...(typeof o.now === 'string' ? { now: o.now } : {}),
        dryRun: o.dryRun === true,
        force: o.force === true,
      });
      if (r.kind === 'locked') throw new TidepoolError('locked', r.message);
      const json =
        r.kind === 'slept'
          ? {
              kind: r.kind,
              run_id: r.runId,
              resumed: r.resumed,
              day: r.briefing.day,
              headline: r.briefing.headline,
              decision: r.decision ?? null,
              log: r.log,
            }
          : r.kind === 'awake'
            ? { kind: r.kind, decision: r.decision, message: describeWake(r.decision, m.config.sleep.wake) }
            : { kind: r.kind, decision: r.decision, units: r.units, log: r.log };
      print(deps, o, json, () => {
        if (r.kind !== 'dry_run') return describeNight(r, m.config.sleep.wake);
        const lines = r.units.map((u) => `${u.step.padEnd(10)} ${u.unit}  ${JSON.stringify(u.proposals)}`);
        return [describeWake(r.decision, m.config.sleep.wake), ...lines, describeNight(r)].join('\n');
      });
    });
  });

  withCommon(
    program
      .command('briefing')
      .description('the morning briefing (default: the newest)')
      .option('--date <YYYY-MM-DD>', 'the UTC day of the briefing'),
  ).action(async (o: Opts) => {
    await withMemory(deps, o, async (m) => {
      if (typeof o.date === 'string') {
        const b = await m.briefingOfDay(o.date);
        print(deps, o, b, () => b.body);
        return;
      }
      const r = await m.briefing();
      print(deps, o, r, () => ('kind' in r ? r.message : r.body));
    });
  });

  withCommon(
    program
      .command('review')
      .description(
        'Needs review: knowledge held back for contradicting reliable knowledge, and rows flagged for personal data in clear; approve or reject one',
      )
      .argument('[id]', 'the entry to decide on (k12)')
      .option('--approve', 'accept it: it replaces the entry it contradicted (a flagged row is kept)')
      .option('--reject', 'drop it: it is forgotten (a flagged row is erased)'),
  ).action(async (id: string | undefined, o: Opts) => {
    await withMemory(deps, o, async (m) => {
      if (id === undefined) {
        if (o.approve === true || o.reject === true)
          throw new TidepoolError(
            'invalid_input',
            'id: name the entry to approve or reject (tidepool review lists them)',
            { field: 'id' },
          );
        const items = await m.reviewList();
        print(deps, o, { items }, () =>
          items.length === 0
            ? 'nothing needs review'
            : items
                .map(
                  (i) =>
                    `${i.id}  ${isoMinute(i.createdAt)}  "${i.content}"\n      ${i.reason}${i.against ? `: ${i.against.id} "${i.against.content}"` : ''}`,
                )
                .join('\n'),
        );
        return;
      }
      if ((o.approve === true) === (o.reject === true))
        throw new TidepoolError('invalid_input', 'verdict: give exactly one of --approve or --reject', {
          field: 'verdict',
        });
      const r = await m.review({ id, verdict: o.approve === true ? 'approve' : 'reject' });
      print(deps, o, r, () =>
        r.kind === 'rejected'
          ? `${r.id} rejected: forgotten`
          : `${r.id} approved: now ${r.status}${r.replaced ? `, replaces ${r.replaced}` : ''}`,
      );
    });
  });

  withCommon(
    program.command('self').description('the self-image the sleep writes, and the self-concept'),
  ).action(async (o: Opts) => {
    await withMemory(deps, o, async (m) => {
      const v = await m.readSelf();
      print(deps, o, v, () => {
        const image = v.image ? Object.entries(v.image).map(([k, t]) => `${k.replace(/_/g, ' ')}: ${t}`) : [];
        const concept = v.concept.map((c) => `${c.field}: ${c.content}`);
        return [...image, ...concept, ...(v.message ? [v.message] : [])].join('\n');
      });
    });
  });

  withCommon(
    program
      .command('gaps')
      .description('topics mentioned often but barely linked: worth exploring')
      .option('--limit <n>', 'most gaps', '10'),
  ).action(async (o: Opts) => {
    await withMemory(deps, o, async (m) => {
      const r = await m.readGaps({
        limit: intOption('limit', typeof o.limit === 'string' ? o.limit : undefined),
      });
      print(deps, o, r, () =>
        r.gaps.length === 0
          ? (r.message ?? 'no gaps')
          : r.gaps.map((g) => `${g.topic}  (mentioned ${g.mentions}×, ${g.degree} link(s))`).join('\n'),
      );
    });
  });
}
