// Tidepool as a system of the retrieval benchmark: one fresh file-backed memory per LoCoMo conversation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appContextOf, type Tidepool } from '../app/tidepool.js';
import { openMemory } from '../boot/open-memory.js';
import { FixedClock } from '../core/clock.js';
import { parseId } from '../core/ids.js';
import type { ConfigInput } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import { renderContextLine, renderHitLine } from '../retrieval/recall-pipeline.js';
import type { BenchConversation } from './locomo.js';
import { locomoTurns, questionTime } from './locomo-turns.js';
import type { RenderedBlock } from './metrics.js';
import type { BenchEmbedder, RetrievalSystem } from './retrieval-system.js';
import { createScratchDatabase } from './scratch-database.js';

/** Adapts a benchmark embedder to Tidepool's Embedder port. */
export function benchEmbedderAsEmbedder(e: BenchEmbedder, model = `bench-hash-${e.dims}`): Embedder {
  return { model, embed: async (texts) => (await e.embed(texts)).map((v) => Float32Array.from(v)) };
}

/** Tidepool recall over the episode layer, lexical (no embedder) or hybrid. */
export class TidepoolRetrievalSystem implements RetrievalSystem {
  readonly name = 'tidepool';
  readonly mode: string;
  readonly #embedder: Embedder | undefined;
  #memory: Tidepool | undefined;
  #dir: string | undefined;
  /** The scratch database of the conversation loaded, on `postgres`'s server. */
  #drop: (() => Promise<void>) | undefined;
  #dia = new Map<string, string>();

  readonly #config: ConfigInput | undefined;
  readonly #archived: number;
  readonly #postgres: string | undefined;

  /**
   * `config` overrides Tidepool's configuration (e.g. `{ recall: { neighbourTurns: 3 } }`) for tuning runs;
   * `archived` moves episodes to the archive after loading (as the nightly lifecycle would 14 days after
   * consolidation), to measure the archive as a searchable tier: `true` every episode (mode `…-archived`), a
   * number the oldest share of them (mode `…-archived-0.5`). `postgres` (a server's URL) stores each conversation in a
   * database of its own on that server, created for it and dropped after (mode `…-postgres`), instead of a SQLite file.
   */
  constructor(opts: { embedder?: BenchEmbedder; config?: ConfigInput; archived?: boolean | number; postgres?: string } = {}) {
    this.#archived = opts.archived === true ? 1 : typeof opts.archived === 'number' ? opts.archived : 0;
    const tier = this.#archived === 0 ? '' : this.#archived === 1 ? '-archived' : `-archived-${this.#archived}`;
    this.mode = `${opts.embedder ? 'hybrid' : 'lexical'}${tier}${opts.postgres ? '-postgres' : ''}`;
    this.#config = opts.config;
    this.#postgres = opts.postgres;
    this.#embedder = opts.embedder ? benchEmbedderAsEmbedder(opts.embedder) : undefined;
  }

  async load(conv: BenchConversation): Promise<void> {
    await this.close();
    let at: { path: string } | { url: string };
    if (this.#postgres) {
      const db = await createScratchDatabase(this.#postgres, 'retrieval');
      this.#drop = db.drop;
      at = { url: db.url };
    } else {
      this.#dir = mkdtempSync(join(tmpdir(), 'tidepool-bench-'));
      at = { path: join(this.#dir, 'memory.db') };
    }
    this.#memory = await openMemory({
      clock: new FixedClock(questionTime(conv)),
      ...at,
      space: 'bench',
      embedder: this.#embedder ?? 'none',
      warn: () => {},
      ...(this.#config ? { config: this.#config } : {}),
    });
    // One dialog turn = one episode, at its session's time (turns a second apart keep their order), speaker kept.
    const turns = locomoTurns(conv).map(({ diaId: _d, sessionN: _n, ...t }) => t);
    const r = await this.#memory.record({ turns }, { source: 'import', durable: true, kind: 'import' });
    this.#dia = new Map(r.ids.map((id, i) => [id, turns[i]!.ref.split(':').slice(2).join(':')]));
    if (this.#archived > 0) {
      // Turns are recorded in time order, so the first ids are the oldest.
      const ctx = appContextOf(this.#memory);
      const end = Math.max(...conv.sessions.map((s) => s.at + s.turns.length * 1000));
      const old = r.ids.slice(0, Math.round(r.ids.length * this.#archived)).map((id) => parseId(id).id);
      await ctx.scope.episodes.markArchived(old, end);
    }
  }

  async search(question: string, k: number): Promise<string[]> {
    const hits = await this.#memory!.recall({ query: question, limit: k, layers: ['episode'] }, { sideEffects: false });
    // Every turn the hits show, in the order of the memory's scores: a hit, the same text said again (its repeats, each at
    // its own score) and the neighbours shown as its context (at their share of its score). The harness cuts at k turns.
    return hits
      .flatMap((h) => [
        { id: h.id, s: h.score },
        ...(h.repeats ?? []).map((r) => ({ id: r.id, s: r.score })),
        ...(h.context ?? []).map((c) => ({ id: c.id, s: c.score })),
      ])
      .sort((a, b) => b.s - a.s)
      .map((x) => x.id)
      .map((id) => this.#dia.get(id))
      .filter((d): d is string => d !== undefined);
  }

  /** The block recall would inject: its own rendered lines, in rank order. */
  async renderBlock(question: string): Promise<RenderedBlock> {
    const hits = await this.#memory!.recall({ query: question, limit: 200, layers: ['episode'] }, { sideEffects: false });
    let text = '';
    const diaIdsInOrder: Array<{ diaId: string; offsetChars: number; endChars: number }> = [];
    const add = (id: string, line: string) => {
      const diaId = this.#dia.get(id);
      if (diaId) diaIdsInOrder.push({ diaId, offsetChars: text.length, endChars: text.length + line.length });
      text += `${line}\n`;
    };
    for (const h of hits) {
      add(h.id, renderHitLine(h));
      for (const c of h.context ?? []) add(c.id, renderContextLine(c));
    }
    return { text, diaIdsInOrder };
  }

  async close(): Promise<void> {
    await this.#memory?.close();
    this.#memory = undefined;
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
    await this.#drop?.();
    this.#drop = undefined;
  }
}
