// Measures one system at one corpus size: batched and single ingest, lexical and hybrid latency, size, memory.
import { performance } from 'node:perf_hooks';
import { summariseLatency } from '../percentile.js';
import type { LatencySummary } from '../percentile.js';
import { questionKeywords } from '../question-keywords.js';
import { hashEmbedding } from './hash-embedding.js';
import { MemorySampler, collectGarbage } from './memory-sampler.js';
import type { ScaleSystem, ScaleSystemFactory } from './scale-system.js';
import { createRng, type SeededRandom } from '../../script/seeded-rng.js';
import { syntheticEpisodes } from './synthetic-episodes.js';
import type { ScaleItem } from './synthetic-episodes.js';

/** One system at one size. Rates are items per second; sizes and memory are bytes. */
export interface ScaleRow {
  readonly system: string;
  readonly storage: 'disk' | 'memory';
  readonly size: number;
  readonly status: 'ok' | 'not_run' | 'failed';
  /** Why a row did not run or failed. */
  readonly reason?: string;
  readonly batch_ingest_per_s?: number;
  readonly single_ingest_per_s?: number;
  /** The lexical queries' first pass, right after the ingest: what a fresh process pays (caches, connections, JIT). */
  readonly lexical?: LatencySummary;
  /**
   * The same lexical queries again, last of all (after the hybrid and vector runs): the latency of a process that has
   * asked them before. Reported beside the first pass, never instead of it; known-item recall is the first pass's.
   */
  readonly lexical_second_pass?: LatencySummary;
  readonly hybrid?: LatencySummary;
  /** Mean number of hits a lexical query returned (0 would mean the search found nothing). */
  readonly mean_hits?: number;
  /** Share of queries whose source episode (the one its words were drawn from) is in the top k. */
  readonly known_item?: number;
  /** Vector KNN alone: the fast path's recall@k of the exact top-k, and both latencies (systems that have both). */
  readonly vector_knn?: { readonly recall: number; readonly exact: LatencySummary; readonly fast: LatencySummary };
  /** Seconds the vector path took to get ready before the hybrid queries (SQLite: the HNSW graph's build). */
  readonly vector_ready_s?: number;
  /** Vector KNN alone on dense, clustered 384-d vectors, as many as the episodes; with the graph's build seconds. */
  readonly vector_knn_clustered?: {
    readonly recall: number;
    readonly exact: LatencySummary;
    readonly fast: LatencySummary;
    readonly ready_s: number;
  };
  readonly db_bytes?: number | null;
  readonly peak_rss_bytes?: number;
  readonly heap_growth_bytes?: number;
  readonly seconds?: number;
  /** Process that ran the measurement (a child's when isolated). */
  readonly pid?: number;
}

/** Parameters of one measured run. */
export interface ScaleRunParams {
  readonly queries: number;
  readonly singleCalls: number;
  readonly batchSize: number;
  readonly k: number;
  readonly seed: number;
}

function withEmbedding(item: ScaleItem, hybrid: boolean): ScaleItem {
  if (hybrid) item.embedding = hashEmbedding(item.text);
  return item;
}

/**
 * A query of 2–3 keywords drawn from one episode's text (the episodes are spread evenly over the first `size`; the
 * rng is seeded with `seed ^ size`). Exported for `bench/pg-query-profile.ts`, which replays the same queries.
 */
export function queryFor(text: string, rng: SeededRandom): string {
  const words = questionKeywords(text);
  const picked = new Set<string>();
  const want = Math.min(words.length, rng.between(2, 3));
  while (picked.size < want) picked.add(rng.pick(words));
  return [...picked].join(' ') || text;
}

async function timeQueries(
  queries: readonly string[],
  run: (q: string, i: number) => Promise<unknown>,
): Promise<{ ms: number[]; hits: number[]; results: unknown[] }> {
  const ms: number[] = [];
  const hits: number[] = [];
  const results: unknown[] = [];
  for (let i = 0; i < queries.length; i += 1) {
    const t0 = performance.now();
    const result = await run(queries[i] as string, i);
    ms.push(performance.now() - t0);
    if (Array.isArray(result)) hits.push(result.length);
    results.push(result);
  }
  return { ms, hits, results };
}

/** Known-item recall: the share of queries whose source item is among the ids of its result. */
async function knownItem(system: ScaleSystem, results: readonly unknown[], sourceIds: readonly string[]): Promise<number | undefined> {
  if (results.length === 0) return undefined;
  let found = 0;
  for (let i = 0; i < results.length; i += 1) {
    const r = results[i];
    const ids = system.itemIds ? await system.itemIds(r) : Array.isArray(r) ? r.map(String) : [];
    if (ids.includes(sourceIds[i] as string)) found += 1;
  }
  return found / results.length;
}

/**
 * Feeds a fresh instance `size` episodes of the seeded stream in batches (timed), then
 * `singleCalls` more one by one (timed), then times `queries` lexical and, for hybrid systems,
 * hybrid searches of 2–3 keywords drawn from episodes spread over the corpus. Memory is sampled
 * throughout; the size probe runs last, outside the peak. `onMeasured` gets the row before that
 * probe, which may serialise a whole in-memory index and run out of memory doing it.
 */
export async function measureScaleRun(
  factory: ScaleSystemFactory,
  size: number,
  p: ScaleRunParams,
  onMeasured?: (row: ScaleRow) => Promise<void>,
): Promise<ScaleRow> {
  const started = performance.now();
  collectGarbage();
  const sampler = new MemorySampler();
  sampler.start();
  const system: ScaleSystem = await factory.create();
  const stream = syntheticEpisodes({ seed: p.seed });
  const queryEvery = Math.max(1, Math.floor(size / p.queries));
  const sources: string[] = [];
  const sourceIds: string[] = [];
  let ingestMs = 0;
  try {
    for (let done = 0; done < size; ) {
      const batch: ScaleItem[] = [];
      for (; batch.length < p.batchSize && done < size; done += 1) {
        const item = withEmbedding(stream.next().value, factory.hybrid);
        if (done % queryEvery === 0 && sources.length < p.queries) {
          sources.push(item.text);
          sourceIds.push(item.id);
        }
        batch.push(item);
      }
      const t0 = performance.now();
      await system.ingestBatch(batch);
      ingestMs += performance.now() - t0;
      sampler.sample();
    }
    let singleMs = 0;
    for (let i = 0; i < p.singleCalls; i += 1) {
      const item = withEmbedding(stream.next().value, factory.hybrid);
      const t0 = performance.now();
      await system.ingestOne(item);
      singleMs += performance.now() - t0;
    }
    sampler.sample();
    const rng = createRng(p.seed ^ size);
    const queries = sources.map((t) => queryFor(t, rng));
    // Before any timed query: a hybrid system's recall searches vectors too, lexical rows included.
    let readyS: number | undefined;
    if (factory.hybrid && system.prepareHybrid) {
      const t0 = performance.now();
      await system.prepareHybrid();
      readyS = Math.round(performance.now() - t0) / 1000;
    }
    const lexical = await timeQueries(queries, (q) => system.search(q, p.k));
    const searchHybrid = system.searchHybrid?.bind(system);
    const vectors = factory.hybrid && searchHybrid ? queries.map((q) => hashEmbedding(q)) : [];
    const hybrid = searchHybrid && factory.hybrid
      ? await timeQueries(queries, (q, i) => searchHybrid(q, vectors[i] as Float32Array, p.k))
      : undefined;
    const agreement = factory.hybrid && system.vectorAgreement ? await system.vectorAgreement(vectors.slice(0, 50), p.k) : undefined;
    const clustered = factory.hybrid && system.clusteredAgreement ? await system.clusteredAgreement(size, 50, p.k) : undefined;
    const again = await timeQueries(queries, (q) => system.search(q, p.k));
    const peaks = sampler.stop();
    const row: ScaleRow = {
      system: factory.name,
      storage: factory.storage,
      size,
      status: 'ok',
      batch_ingest_per_s: Math.round(size / (ingestMs / 1000)),
      single_ingest_per_s: p.singleCalls > 0 ? Math.round(p.singleCalls / (singleMs / 1000)) : undefined,
      lexical: summariseLatency(lexical.ms),
      lexical_second_pass: summariseLatency(again.ms),
      hybrid: hybrid ? summariseLatency(hybrid.ms) : undefined,
      vector_knn: agreement
        ? { recall: agreement.recall, exact: summariseLatency(agreement.exactMs), fast: summariseLatency(agreement.fastMs) }
        : undefined,
      vector_ready_s: readyS,
      vector_knn_clustered: clustered
        ? {
            recall: clustered.recall, exact: summariseLatency(clustered.exactMs), fast: summariseLatency(clustered.fastMs),
            ready_s: clustered.readySeconds,
          }
        : undefined,
      mean_hits: lexical.hits.length > 0 ? lexical.hits.reduce((a, b) => a + b, 0) / lexical.hits.length : undefined,
      known_item: await knownItem(system, lexical.results, sourceIds),
      db_bytes: null,
      peak_rss_bytes: peaks.peak_rss_bytes,
      heap_growth_bytes: peaks.peak_heap_bytes - peaks.baseline_heap_bytes,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      pid: process.pid,
    };
    await onMeasured?.(row);
    let db: number | null = null;
    try {
      db = (await system.dbSizeBytes?.()) ?? null;
    } catch {
      db = null; // An index too large to serialise (V8's string limit) has no measurable size.
    }
    return { ...row, db_bytes: db };
  } finally {
    sampler.stop();
    await system.close();
  }
}

