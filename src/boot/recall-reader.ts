/**
 * Entry of a reader thread (boot/reader-pool.ts): opens the SQLite file read-only and answers recall's read part
 * (`runRecall`, no side effects) for the main thread, which keeps the single writer. WAL lets this connection read
 * next to the writer; each statement sees every transaction committed before it began, so a write acknowledged by the
 * main thread is visible to the next recall answered here.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import { isTidepoolError } from '../core/errors.js';
import { runRecall } from '../retrieval/recall-pipeline.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite.js';
import { onCorruptColumn, type CorruptColumn } from '../store/sql/sql-util.js';
import type { ReaderReply, ReaderRequest, ReaderSetup } from './reader-pool.js';

const setup = workerData as ReaderSetup;
const port = parentPort!;
const store = await openSqliteStore(setup.path, { readonly: true });

/** The query's vector came embedded from the main thread: one embedder, one model, wherever recall runs. */
function embedderOf(m: ReaderRequest): Embedder | undefined {
  if (m.model === undefined) return undefined;
  const vector = m.vector;
  return {
    model: m.model,
    // No vector: the main thread's embedder failed, and runRecall answers lexically, as it does in-process.
    embed: async () => {
      if (!vector) throw new Error('the query could not be embedded');
      return [vector];
    },
  };
}

// Corrupt JSON columns this thread read since its last answer travel with the next one: the main thread keeps the
// warnings (this connection is read-only).
let corrupt: CorruptColumn[] = [];
onCorruptColumn((c) => corrupt.push(c));
function seen(): { corrupt?: CorruptColumn[] } {
  if (corrupt.length === 0) return {};
  const out = corrupt;
  corrupt = [];
  return { corrupt: out };
}

port.on('message', (m: ReaderRequest | 'close') => {
  if (m === 'close') {
    void store.close().finally(() => port.close());
    return;
  }
  const config = setup.config as Config;
  runRecall({ store, config, embedder: embedderOf(m), now: m.now }, m.space, m.req).then(
    (hits) => port.postMessage({ id: m.id, hits, ...seen() } satisfies ReaderReply),
    (e: unknown) =>
      port.postMessage({
        id: m.id,
        error: { code: isTidepoolError(e) ? e.code : 'internal', message: e instanceof Error ? e.message : String(e) },
      } satisfies ReaderReply),
  );
});
port.postMessage('ready');
