/** `recall`: ranked hits over every layer; each hit reinforces its knowledge and is logged as attention. */
import { parseInput, recallInput, type RecallInput } from '../core/schemas.js';
import type { AttentionSource, RecallHit } from '../core/types.js';
import { parseId } from '../core/ids.js';
import { renderHitBlock, runRecall } from '../retrieval/recall-pipeline.js';
import type { AttentionEntry, Store } from '../store/port.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';
import { noteWarning } from './warnings.js';
import type { Warn } from '../core/warning.js';

/** Options of a recall beyond its input. */
/** One hit as the tools show it to an agent (the one renderer, retrieval's `renderHitBlock`, in its detailed style). */
export function hitText(h: RecallHit): string {
  return renderHitBlock(h, 'detailed');
}

export interface RecallOptions {
  /** Attention source of the hits (recall by default; injection passes t0_inject/t1_prefetch). */
  source?: AttentionSource;
  /** Session the hits are shown in (prefetch never repeats an item within it). */
  session?: string;
  /** Skip reinforcement and attention logging (benchmarks, dry runs). */
  sideEffects?: boolean;
  /** Only knowledge whose key starts with this, filtered in the query (app/keyed-knowledge.ts, the LangGraph store). */
  keyPrefix?: string;
}

/** Searches the memory; quarantined knowledge never appears. */
export async function recall(ctx: AppContext, raw: RecallInput, opts: RecallOptions = {}): Promise<RecallHit[]> {
  const parsed = parseInput(recallInput, raw);
  const input = opts.keyPrefix === undefined ? parsed : { ...parsed, keyPrefix: opts.keyPrefix };
  await requireSpace(ctx);
  const now = ctx.clock.now();
  const warn: Warn = (kind, message) => noteWarning(ctx, kind, message);
  const hits = ctx.readers
    ? await ctx.readers.recall(ctx.space, input, now, ctx.embedder, warn)
    : await runRecall({ store: ctx.store, config: ctx.config, embedder: ctx.embedder, now, warn }, ctx.space, input);
  if (opts.sideEffects !== false && hits.length > 0) await noteHits(ctx, hits, opts.source ?? 'recall', opts.session ?? null, now);
  return hits;
}

/**
 * Reinforces the knowledge among `hits` and writes every hit to the attention log; resolves after the commit.
 * Calls that arrive while another is being written share the next transaction (a group commit): each commit
 * syncs the WAL, and with recall's search on reader threads (boot/reader-pool.ts) one sync per recall would
 * make the writer the bottleneck. Within a batch the order of calls is kept; if the transaction fails, every
 * call in it fails, and none of them changed anything.
 */
export function noteHits(
  ctx: AppContext,
  hits: readonly Pick<RecallHit, 'id' | 'score'>[],
  source: AttentionSource,
  session: string | null,
  now: number,
): Promise<void> {
  const parsed = hits.map((h) => ({ ...parseId(h.id), sim: h.score }));
  return new Promise((resolve, reject) => {
    let writer = writers.get(ctx.store);
    if (!writer) {
      writer = { queue: [], running: false, drained: Promise.resolve() };
      writers.set(ctx.store, writer);
    }
    writer.queue.push({
      space: ctx.space,
      knowledge: parsed.filter((p) => p.layer === 'knowledge').map((p) => p.id),
      step: ctx.config.recall.reinforceStep,
      entries: parsed.map((p) => ({ layer: p.layer, itemId: p.id, sim: p.sim, cluster: null, source, session, at: now })),
      now,
      resolve,
      reject,
    });
    if (!writer.running) writer.drained = drain(ctx.store, writer);
  });
}

/**
 * Resolves once every hit noted so far on `store` is written (or failed): a memory closes its store only after its
 * notes, so a recall answered just before `close` does not find the database closed under its note.
 */
export async function notesWritten(store: Store): Promise<void> {
  await writers.get(store)?.drained;
}

interface Noted {
  space: string;
  knowledge: number[];
  step: number;
  entries: AttentionEntry[];
  now: number;
  resolve(): void;
  reject(e: unknown): void;
}

/**
 * Runs a transaction again when PostgreSQL broke a deadlock by aborting it (SQLSTATE 40P01). Batches of noted hits
 * lock in one order (`noteBatch`), so two of them no longer meet the other way round; a night or a keyed remember on
 * another server, which lock other rows first, still may. The aborted transaction wrote nothing, so running it again
 * is safe.
 */
async function withDeadlockRetry<T>(run: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (e) {
      if ((e as { code?: unknown }).code !== '40P01' || i >= tries) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * i));
    }
  }
}

/**
 * Writes a batch of noted hits, locking in the same order in every batch: first the knowledge they reinforce (space by
 * space, each space's entries locked at once in id order), then the attention log and its per-cluster totals (space
 * by space, clusters in order, `AttentionSql.log`). Written call by call, a batch locked one call's totals before the
 * next call's knowledge, and two servers' batches waited on each other until PostgreSQL's deadlock check (a second)
 * aborted one: recall's p99 on three servers was seconds (docs/scaling.md, "Many servers, one memory").
 */
async function noteBatch(tx: Store, batch: readonly Noted[]): Promise<void> {
  const spaces = [...new Set(batch.map((n) => n.space))].sort();
  for (const space of spaces) {
    const hits = batch
      .filter((n) => n.space === space && n.knowledge.length > 0)
      .map((n) => ({ ids: n.knowledge, step: n.step, at: n.now }));
    if (hits.length > 0) await tx.forSpace(space).knowledge.reinforce(hits);
  }
  for (const space of spaces) {
    await tx.forSpace(space).attention.log(batch.filter((n) => n.space === space).flatMap((n) => n.entries));
  }
}

/** Per store: hits waiting to be noted, and whether a transaction is writing them. */
const writers = new WeakMap<Store, NoteWriter>();

/** A store's queue of noted hits; `drained` settles when the current drain has written them all. */
interface NoteWriter {
  queue: Noted[];
  running: boolean;
  drained: Promise<void>;
}

async function drain(store: Store, writer: NoteWriter): Promise<void> {
  writer.running = true;
  try {
    while (writer.queue.length > 0) {
      // One turn of the event loop lets the calls of the same moment join this batch.
      await new Promise<void>((r) => setImmediate(r));
      const batch = writer.queue.splice(0);
      try {
        await withDeadlockRetry(() => store.transaction((tx) => noteBatch(tx, batch)));
        for (const n of batch) n.resolve();
      } catch (e) {
        for (const n of batch) n.reject(e);
      }
    }
  } finally {
    writer.running = false;
  }
}
