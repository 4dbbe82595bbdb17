/** `tidepool script <job>`: one deterministic script-layer job, or `all` of them in order. */
import type { Command } from 'commander';
import {
  isScriptJob,
  SCRIPT_JOBS,
  type ScriptAllEntry,
  type ScriptJobOptions,
  type ScriptJobResult,
} from '../../app/script-jobs.js';
import { parseTime } from '../../core/schemas.js';
import { TidepoolError } from '../../core/errors.js';
import { intOption, print, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

type ScriptOptions = CommonOptions & { merge?: boolean; days?: string; since?: string };

/** Registers `script`. */
export function registerScriptCommand(program: Command, deps: CliDeps): void {
  withCommon(
    program
      .command('script')
      .description(
        `run a script-layer job (${SCRIPT_JOBS.join(', ')}) or all of them in order; safe to run any time`,
      )
      .argument('<job>', `${SCRIPT_JOBS.join(' | ')} | all`)
      .option(
        '--merge',
        'topics: join words whose narratives overlap (Jaccard ≥ 0.7); best past ~1,000 narratives',
      )
      .option('--days <n>', 'attention: heatmap period in days', '7')
      .option('--since <time>', 'scan: read episodes stored after this time (default: the newest narrative)'),
  ).action(async (job: string, o: ScriptOptions) => {
    if (job !== 'all' && !isScriptJob(job)) {
      throw new TidepoolError('invalid_input', `unknown job "${job}"; jobs: ${SCRIPT_JOBS.join(', ')}, all`, {
        field: 'job',
      });
    }
    const opts: ScriptJobOptions = { merge: o.merge ?? false, days: intOption('days', o.days) ?? 7 };
    if (o.since !== undefined) {
      const since = /^\d+$/.test(o.since) ? Number(o.since) : parseTime(o.since);
      if (since === undefined)
        throw new TidepoolError('invalid_input', `--since is not a time: "${o.since}"`, { field: 'since' });
      opts.since = since;
    }
    await withMemory(deps, o, async (m) => {
      if (job !== 'all') {
        const r = await m.script(job as ScriptAllEntry['job'], opts);
        print(deps, o, r, () =>
          r.job === 'scan'
            ? r.markdown
            : r.job === 'attention'
              ? `${summary(r)}\n\n${r.markdown}`
              : summary(r),
        );
        return;
      }
      // Human mode prints each job as it finishes, so a long night shows where it is.
      const all = await m.scriptAll(opts, o.json ? undefined : (e) => deps.stdout.write(`${line(e)}\n`));
      if (o.json) print(deps, o, { ...all, jobs: all.jobs.map(compact) }, () => '');
      else deps.stdout.write(`${all.ok ? 'all jobs done' : 'some jobs failed'} in ${all.ms} ms\n`);
      if (!all.ok) process.exitCode = 1;
    });
  });
}

function line(e: ScriptAllEntry): string {
  return e.ok ? summary(e.result) : `${e.job}: FAILED: ${e.error}`;
}

/** `all --json` leaves out the scan's chunk texts and markdown: `script scan --json` gives them. */
function compact(e: ScriptAllEntry): ScriptAllEntry | Record<string, unknown> {
  if (!e.ok || e.result.job !== 'scan') return e;
  const { scan, reembedded, ms } = e.result;
  return {
    job: e.job,
    ok: true,
    result: {
      job: 'scan',
      reembedded,
      ms,
      trackA: scan.trackA,
      trackB: { ...scan.trackB, chunks: scan.trackB.chunks.length },
      trackC: scan.trackC,
      trackD: scan.trackD,
    },
  };
}

/** One line (or a few) saying what a job did. */
export function summary(r: ScriptJobResult): string {
  switch (r.job) {
    case 'topics': {
      const head = `topics: ${r.clusters.length} clusters from ${r.narratives} narratives (dropped ${r.dropped.generic} words in ≥ ${r.maxDf} narratives, ${r.dropped.rare} in < 3)`;
      return [head, ...r.clusters.slice(0, 10).map((c) => `  ${c.name} (${c.size})`)].join('\n');
    }
    case 'soft-clusters':
      if (r.status === 'skipped') return `soft-clusters: skipped: ${r.message}`;
      return [
        `soft-clusters: k=${r.k} over ${r.narratives} narratives (${r.model}, ${r.dim}-d, ${r.iterations} iterations${r.converged ? '' : ', not converged'}), ${r.adjacency} adjacent pairs`,
        ...r.clusters.slice(0, 10).map((c) => `  #${c.id} ${c.name} (${c.memberCount})`),
      ].join('\n');
    case 'attention':
      return `attention: ${r.events} hits relabelled into ${r.labels} clusters; last ${Math.round((r.heatmap.until - r.heatmap.since) / 86_400_000)} days: ${r.heatmap.totalHits} hits, ${r.heatmap.neverLitCount} clusters never lit`;
    case 'entity-graph':
      return [
        `entity-graph: ${r.nodes} entities, ${r.edges} edges, ${r.pairs} pairs from ${r.narratives} narratives`,
        ...r.top.map((n) => `  ${n.entity} (${n.mentionCount})`),
      ].join('\n');
    case 'recurrence':
    case 'normalize':
      return `${r.job}: ${r.changed} of ${r.read} narratives read changed; weights high ${r.bands.high}, mid ${r.bands.mid}, low ${r.bands.low}`;
    case 'scan': {
      const s = r.scan;
      return `scan: A ${s.trackA.count} narratives without source_links, B ${s.trackB.chunks.length} chunks (${s.trackB.turnCount} turns) to solidify, C ${s.trackC.count} narratives and D ${s.trackD.count} episodes awaiting embeddings`;
    }
    case 'backfill-links':
      return `backfill-links: ${r.linked} of ${r.unlinked} narratives without source_links linked (${r.links} links)`;
  }
}
