/**
 * `tidepool script <job>`: the deterministic script layer (DESIGN §5, SEEDS §1.7). Each job reads what it needs,
 * computes with the pure `src/script/` functions and rebuilds its derived tables in one transaction, so any job is
 * safe to run at any time and twice in a row changes nothing the second time.
 */
import { TidepoolError } from '../core/errors.js';
import type { AppContext } from './app-context.js';
import {
  attentionJob,
  softClustersJob,
  topicsJob,
  type AttentionResult,
  type SoftClustersResult,
  type TopicsResult,
} from './script-cluster-jobs.js';
import {
  backfillLinksJob,
  entityGraphJob,
  normalizeJob,
  recurrenceJob,
  type BackfillLinksResult,
  type EntityGraphResult,
  type WeightJobResult,
} from './script-narrative-jobs.js';
import { createScriptRun, type ScriptRun } from './script-run.js';
import { scanJob, type ScanResult } from './script-scan-job.js';

/** The jobs, in the order `script all` runs them (the order: clusters first, so attention can label by them). */
export const SCRIPT_JOBS = [
  'topics',
  'soft-clusters',
  'attention',
  'entity-graph',
  'recurrence',
  'normalize',
  'scan',
  'backfill-links',
] as const;
/** One script job. */
export type ScriptJob = (typeof SCRIPT_JOBS)[number];

/** Options of the jobs; each job reads only its own. */
export interface ScriptJobOptions {
  /** topics: join words whose narrative sets overlap (Jaccard ≥ 0.7; SEEDS §1.7, off by default). */
  merge?: boolean;
  /** attention: length of the heatmap period in days (SEEDS §1.4: 7). */
  days?: number;
  /** scan: Track B reads episodes stored after this time (default: the newest narrative's creation). */
  since?: number;
}

/** What one job did. */
export type ScriptJobResult =
  | TopicsResult
  | SoftClustersResult
  | AttentionResult
  | EntityGraphResult
  | WeightJobResult
  | ScanResult
  | BackfillLinksResult;

/** One job's outcome within `script all`: its result, or the error that stopped it (the others still run). */
export type ScriptAllEntry =
  { job: ScriptJob; ok: true; result: ScriptJobResult } | { job: ScriptJob; ok: false; error: string };

/** What `script all` did. */
export interface ScriptAllResult {
  jobs: ScriptAllEntry[];
  ok: boolean;
  ms: number;
}

/** True when `name` is a job name. */
export function isScriptJob(name: string): name is ScriptJob {
  return (SCRIPT_JOBS as readonly string[]).includes(name);
}

/** Runs one job. `run` shares keyword extraction between the jobs of one `script all`. */
export async function runScriptJob(
  ctx: AppContext,
  job: ScriptJob,
  opts: ScriptJobOptions = {},
  run: ScriptRun = createScriptRun(),
): Promise<ScriptJobResult> {
  switch (job) {
    case 'topics':
      return topicsJob(ctx, run, opts.merge ?? false);
    case 'soft-clusters':
      return softClustersJob(ctx);
    case 'attention':
      return attentionJob(ctx, opts.days ?? 7);
    case 'entity-graph':
      return entityGraphJob(ctx);
    case 'recurrence':
      return recurrenceJob(ctx);
    case 'normalize':
      return normalizeJob(ctx);
    case 'scan':
      return scanJob(ctx, opts.since);
    case 'backfill-links':
      return backfillLinksJob(ctx, run);
    default:
      throw new TidepoolError(
        'invalid_input',
        `unknown script job "${String(job)}"; jobs: ${SCRIPT_JOBS.join(', ')}, all`,
        { field: 'job' },
      );
  }
}

/**
 * Runs every job in order. A failing job is reported and the next one still runs: the jobs rebuild independent
 * tables, so one bad input must not leave the others stale.
 */
export async function runAllScriptJobs(
  ctx: AppContext,
  opts: ScriptJobOptions = {},
  onJob?: (entry: ScriptAllEntry) => void,
): Promise<ScriptAllResult> {
  const started = performance.now();
  const run = createScriptRun();
  const jobs: ScriptAllEntry[] = [];
  for (const job of SCRIPT_JOBS) {
    let entry: ScriptAllEntry;
    try {
      entry = { job, ok: true, result: await runScriptJob(ctx, job, opts, run) };
    } catch (e) {
      entry = { job, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    jobs.push(entry);
    onJob?.(entry);
  }
  return { jobs, ok: jobs.every((j) => j.ok), ms: Math.round(performance.now() - started) };
}
