/** `record`: automatic capture of turns and tool results, batched in one transaction, credentials redacted. */
import { formatId } from '../core/ids.js';
import { parseInput, recordInput, type RecordInput } from '../core/schemas.js';
import type { EpisodeKind } from '../core/types.js';
import type { NewEpisode, ScopedStore } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { embedItems } from './embed-items.js';
import { redact, redactJson, redactOptional } from './guard-secrets.js';
import { episodeIndexText } from './index-text.js';

/** What `record` stored. */
export interface RecordResult {
  ids: string[];
  /** Turns skipped because their `ref` was already recorded (idempotent replays and imports). */
  skipped: number;
  /** Credentials replaced by `[secret:<kind>]`. */
  redacted: number;
  /**
   * Turns given a vector by this call: 0 without an embedder; fewer than `ids` when the embedder failed (the rest
   * stay marked for later embedding and a warning says why).
   */
  embedded: number;
}

/** Options of `record` beyond the input. */
export interface RecordOptions {
  /** Where the turns came from (record, import, hook, ingest, journal). */
  source?: string;
  /** Durable episodes never leave the live memory by age (import stores durable episodes). */
  durable?: boolean;
  /** Episode kind for every turn that does not give one (import uses `import`). */
  kind?: EpisodeKind;
}

/** Records one turn or a batch; all of it or nothing. */
export async function record(ctx: AppContext, raw: RecordInput, opts: RecordOptions = {}): Promise<RecordResult> {
  const input = parseInput(recordInput, raw);
  const turns = 'turns' in input ? input.turns : [input];
  const now = ctx.clock.now();
  const counter = { count: 0 };
  let previous = new Map<string, string[]>();
  // Built as they are inserted (a generator): on PostgreSQL, later turns are redacted and their index text made
  // while the server writes earlier ones.
  function* rows(): Generator<NewEpisode> {
    for (const t of turns) {
      // Every stored field, not only the text: speaker, session, tool, ref and free meta are stored and searchable.
      const r = redact(t.content);
      counter.count += r.count;
      const speaker = redactOptional(t.speaker, counter);
      const session = redactOptional(t.session, counter);
      const kind: EpisodeKind = t.kind ?? opts.kind ?? (t.role === 'tool' ? 'tool_result' : 'turn');
      yield {
        kind, role: t.role, speaker: speaker ?? null, content: r.text, session: session ?? null,
        tool: redactOptional(t.tool, counter) ?? null, ok: t.ok ?? null, source: opts.source ?? 'record',
        ref: redactOptional(t.ref, counter) ?? null, meta: redactJson(t.meta ?? {}, counter),
        durable: opts.durable ?? false, occurredAt: t.at ?? now, createdAt: now, embedPending: true,
        index: episodeIndexText(r.text, speaker ?? null, nextContext(previous, session, r.text, ctx.config.recall.contextTurns), ctx.config.index.episodeTrigram),
      };
    }
  }
  const { ids, skipped } = await spaceTransaction(ctx, async (scope, tx) => {
    // Asked together: on a pipelined PostgreSQL connection one round trip (with BEGIN) instead of three.
    [, previous] = await Promise.all([
      tx.spaces.ensure(ctx.space, now),
      precedingTurns(scope, ctx.config.recall.contextTurns, turns.map((t) => t.session)),
    ]);
    return scope.episodes.insertMany(rows());
  });
  let embedded = 0;
  if (ctx.embedder && ids.length > 0) {
    const byId = new Map(ids.map((id, i) => [id, i]));
    const stored = await ctx.scope.episodes.getMany(ids);
    embedded = (await embedItems(ctx, 'episode', stored.filter((e) => byId.has(e.id)).map((e) => ({ id: e.id, text: e.content })))).embedded;
  }
  return { ids: ids.map((id) => formatId('episode', id)), skipped, redacted: counter.count, embedded };
}

/** The last `n` turns already stored for each session of the batch, oldest first. */
async function precedingTurns(scope: ScopedStore, n: number, sessions: ReadonlyArray<string | undefined>): Promise<Map<string, string[]>> {
  if (n === 0) return new Map();
  return scope.episodes.lastInSessions(sessions.filter((s): s is string => s !== undefined), n);
}

/** The context of the next turn of `session`, then remembers `text` as that session's newest turn. */
function nextContext(previous: Map<string, string[]>, session: string | undefined, text: string, n: number): string[] {
  if (session === undefined || n === 0) return [];
  const list = previous.get(session) ?? [];
  const ctxTurns = list.slice(-n);
  list.push(text);
  if (list.length > n) list.splice(0, list.length - n);
  previous.set(session, list);
  return ctxTurns;
}
