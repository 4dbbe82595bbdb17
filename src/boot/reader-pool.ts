/**
 * Reader threads for `tidepool serve --http` on a SQLite file: recall's read part runs on worker threads, each with
 * its own read-only WAL connection, so recall uses every core; the main thread keeps HTTP, MCP sessions and the one
 * writer. A write is acknowledged after its commit on the main thread, and a reader's next statement sees it (WAL);
 * nothing a reader keeps between requests decides what a recall returns except data it re-reads, so a forgotten item
 * leaves the readers' answers as soon as its delete commits. Threads start in the background: until one has opened
 * the file, recall runs on the main thread, so start-up costs nothing.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RecallReaders } from '../app/app-context.js';
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import type { Warn } from '../core/warning.js';
import type { CorruptColumn } from '../store/sql/sql-util.js';
import { corruptColumnMessage } from './corrupt-column-message.js';
import { TidepoolError, type TidepoolErrorCode } from '../core/errors.js';
import type { RecallHit } from '../core/types.js';
import { embedQuery, runRecall, type RecallRequest } from '../retrieval/recall-pipeline.js';
import type { Store } from '../store/port.js';

/** What a reader thread gets at start. */
export interface ReaderSetup {
  path: string;
  config: Config;
}

/** One recall for a reader; `model` set when the memory has an embedder (`vector` absent when embedding failed). */
export interface ReaderRequest {
  id: number;
  space: string;
  req: RecallRequest;
  now: number;
  model?: string;
  vector?: Float32Array;
}

/** A reader's answer. */
export type ReaderReply =
  | { id: number; hits: RecallHit[]; corrupt?: CorruptColumn[] }
  | { id: number; error: { code: TidepoolErrorCode; message: string } };

/** Reader threads when `http.readers` is unset: every core but the main thread's, and at least two. */
export function defaultReaderCount(): number {
  return Math.max(2, availableParallelism() - 1);
}

interface Reader {
  worker: Worker;
  ready: boolean;
  busy: number;
}

/** Options of {@link startReaderPool}. */
export interface ReaderPoolOptions {
  /** The SQLite file (migrated by the main thread's store). */
  path: string;
  config: Config;
  /** The main thread's store: answers while no reader is ready, or after every reader died. */
  store: Store;
  count: number;
  warn: (message: string) => void;
}

/** A running pool: the {@link RecallReaders} the app uses, and how to stop it. */
export interface ReaderPool extends RecallReaders {
  /** Threads started. */
  readonly size: number;
  /** Recalls the threads have answered (the rest ran on the main thread). */
  readonly answered: number;
  /** Resolves once every thread has opened the file (tests and benchmarks wait for it; serving does not). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Starts `count` reader threads on the SQLite file at `path`. */
export function startReaderPool(o: ReaderPoolOptions): ReaderPool {
  const readers: Reader[] = [];
  const pending = new Map<number, { resolve(h: RecallHit[]): void; reject(e: unknown): void; reader: Reader; warn: Warn | undefined }>();
  let nextId = 1;
  let closing = false;
  const entry = readerEntry();
  const started = Array.from({ length: o.count }, () => {
    const worker = new Worker(entry.url, { ...entry.options, workerData: { path: o.path, config: o.config } satisfies ReaderSetup });
    const reader: Reader = { worker, ready: false, busy: 0 };
    readers.push(reader);
    return new Promise<void>((resolve) => {
      worker.on('message', (m: ReaderReply | 'ready') => {
        if (m === 'ready') {
          reader.ready = true;
          resolve();
          return;
        }
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        reader.busy--;
        answered++;
        for (const c of 'hits' in m ? (m.corrupt ?? []) : []) p.warn?.('corrupt_column', corruptColumnMessage(c));
        if ('hits' in m) p.resolve(m.hits);
        // An unexpected failure stays a plain Error, so surfaces keep its details out of their answers, as in-process.
        else p.reject(m.error.code === 'internal' ? new Error(m.error.message) : new TidepoolError(m.error.code, m.error.message));
      });
      worker.on('error', (e) => {
        if (!closing) o.warn(`a recall reader thread failed: ${e.message}`);
      });
      worker.on('exit', () => {
        // A dead reader takes no more work; what it held is answered on the main thread instead.
        reader.ready = false;
        readers.splice(readers.indexOf(reader), 1);
        resolve();
        for (const [id, p] of pending) {
          if (p.reader !== reader) continue;
          pending.delete(id);
          p.reject(new TidepoolError('unavailable', 'the recall reader thread stopped'));
        }
      });
    });
  });

  let answered = 0;
  return {
    size: o.count,
    get answered() {
      return answered;
    },
    async recall(space, req, now, embedder, warn) {
      const reader = leastBusy(readers);
      if (!reader) return runRecall({ store: o.store, config: o.config, embedder, now, ...(warn ? { warn } : {}) }, space, req);
      const msg: ReaderRequest = { id: nextId++, space, req, now, ...(await embedded(embedder, req.query, o.config, warn)) };
      reader.busy++;
      return new Promise<RecallHit[]>((resolve, reject) => {
        pending.set(msg.id, { resolve, reject, reader, warn });
        reader.worker.postMessage(msg);
      });
    },
    async ready() {
      await Promise.all(started);
    },
    async close() {
      closing = true;
      // A ready reader closes its connection; one still starting holds nothing yet and is stopped.
      await Promise.all(
        [...readers].map(async (r) => {
          if (!r.ready) return void (await r.worker.terminate());
          const exited = new Promise<void>((resolve) => r.worker.once('exit', () => resolve()));
          r.worker.postMessage('close');
          await exited;
        }),
      );
    },
  };
}

function leastBusy(readers: readonly Reader[]): Reader | undefined {
  let best: Reader | undefined;
  for (const r of readers) if (r.ready && (!best || r.busy < best.busy)) best = r;
  return best;
}

/** Embeds the query here, so every thread uses the memory's one embedder (a model, or a remote API's client). */
async function embedded(embedder: Embedder | undefined, query: string, config: Config, warn: Warn | undefined): Promise<Pick<ReaderRequest, 'model' | 'vector'>> {
  if (!embedder) return {};
  // Without a vector the reader answers lexically, as runRecall does when embedding fails; `warn` hears why.
  const vector = await embedQuery({ embedder, config, ...(warn ? { warn } : {}) }, query);
  return vector ? { model: embedder.model, vector } : { model: embedder.model };
}

/** The reader's module: the compiled `.js` beside this file, or, under a TypeScript runner (tests), the `.ts` via tsx. */
function readerEntry(): { url: URL | string; options: { eval?: boolean } } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { url: new URL('./recall-reader.js', here), options: {} };
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  const target = new URL('./recall-reader.ts', here).href;
  const code = `(async () => { (await import(${JSON.stringify(tsx)})).register(); await import(${JSON.stringify(target)}); })();`;
  return { url: code, options: { eval: true } };
}
