/** Configuration schema with defaults; `parseConfig` is pure, `boot/` layers file < env < flags (STYLE §6). */
import { z } from 'zod';
import { parseInput } from './schemas.js';
import { WEIGHT_GATES } from './weight-scale.js';

const embedderConfig = z
  .object({
    /** `none` keeps everything lexical (Tideline's FTS-only mode). */
    provider: z.enum(['none', 'openai', 'ollama', 'tideline']).default('none'),
    url: z.string().url().optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().optional(),
    /** Input is cut to this many characters before embedding (SEEDS §1.2: 5000). */
    maxChars: z.number().int().positive().default(5000),
    timeoutMs: z.number().int().positive().default(15_000),
    /** Attempts per call; backoff doubles from `backoffMs` (SEEDS §1.2: 3 attempts, 2 s then 4 s). */
    attempts: z.number().int().min(1).max(10).default(3),
    backoffMs: z.number().int().min(0).default(2000),
  })
  .default({ provider: 'none', maxChars: 5000, timeoutMs: 15_000, attempts: 3, backoffMs: 2000 });

const recallConfig = z
  .object({
    /** Score added to an exact phrase hit so it ranks first (SEEDS §1.5.4: +0.3 boost, made decisive). */
    exactBoost: z.number().default(1),
    /** Reciprocal-rank fusion constant. */
    rrfK: z.number().positive().default(60),
    /** Candidates taken from each list before fusion. */
    candidates: z.number().int().positive().default(100),
    /** Reinforcement added to knowledge strength per recall hit. */
    reinforceStep: z.number().min(0).max(1).default(0.1),
    /** How many neighbouring turns of the same session share a hit's score when the query asks a question (0 turns it off). */
    neighbourTurns: z.number().int().min(0).max(10).default(2),
    /** Share of a hit's score given to the turns 1, 2, … steps away (chosen on the LoCoMo dev split). */
    neighbourWeights: z.array(z.number().min(0).max(1)).default([0.5, 0.25]),
    /** Extra weight for turns spoken by a person the query names (LoCoMo dev: 1.0 beat 0.3, 0.6 and 1.5). */
    speakerBoost: z.number().min(0).max(5).default(1),
    /**
     * Time expressions in the query ("on 13 October, 2023", "in June", "yesterday", "2023年5月3日") are read with
     * chrono-node: their words leave the word query, the named window is searched on its own as well, and hits
     * inside it weigh `1 + timeBoost` times more.
     */
    timeExpressions: z.boolean().default(true),
    timeBoost: z.number().min(0).max(5).default(1),
    /**
     * A turn said up to this many days after a named window (or the window's own length, when longer: "last month"
     * is said during the next month) counts as inside it when what it tells ("last Friday", "yesterday", counted
     * back from when it was said) falls in the window; that stretch is searched too. 0 turns it off.
     */
    toldWithinDays: z.number().min(0).max(366).default(7),
    /** A "when" question ("When did…", "什么时候…") weighs hits that say when (a date, "last week") `1 + whenBoost` times. */
    whenBoost: z.number().min(0).max(5).default(0.3),
    /**
     * …and the first `openingTurns` turns of a session `1 + openingBoost` times: a conversation opens with what
     * happened since the last one (LoCoMo dev: 40 % of temporal evidence turns are among a session's first two, 9 %
     * of all turns).
     */
    openingBoost: z.number().min(0).max(5).default(0.8),
    openingTurns: z.number().int().min(0).max(20).default(3),
    /** Newer hits weigh up to `1 + recencyBoost` times, fading with an e-folding time of `recencyDays`. */
    recencyBoost: z.number().min(0).max(5).default(0.05),
    recencyDays: z.number().positive().default(30),
    /**
     * Archived episodes (the colder tier, DESIGN §6) stay searchable and weigh this many times a live one. Default 1,
     * measured: on LoCoMo dev with the older half of each conversation archived, R@10 is 0.801 at 1, 0.780 at 0.9 and
     * 0.729 at 0.8 (questions ask about old and new alike), so the archive is not ranked down unless asked.
     */
    archivedWeight: z.number().min(0).max(1).default(1),
    /** Preceding turns of the same session indexed with each episode as its weaker `ctx` field. */
    contextTurns: z.number().int().min(0).max(5).default(2),
    /** Vector candidates kept above this cosine. */
    minCosine: z.number().min(-1).max(1).default(0.25),
    /**
     * SQLite with sqlite-vec, opt-in: past this many vectors (per space, layer and model) a Hamming pre-selection over
     * binary copies picks max(400, 20·k) candidates that the exact cosine re-scores. null (default) keeps the exact
     * scan: measured on this machine the binary path was 2-7× faster but found only 0.39-0.70 of the exact top 10
     * (docs/BENCHMARKS.md), short of the 1-point loss that would make it a default.
     */
    vectorQuantizeAbove: z.number().int().min(0).nullable().default(null),
    /**
     * SQLite with hnswlib-node (an optional dependency): sets of at least this many vectors (per space, layer, model)
     * are searched through an HNSW graph kept in `<db>.hnsw/` (it holds each vector whole: its candidates' distances are
     * the exact cosine); smaller sets, and null, take the exact scan. Recall of the exact top 10 and latency: docs/BENCHMARKS.md ("Scale").
     */
    vectorIndexAbove: z.number().int().min(0).nullable().default(5000),
    /**
     * One-hop cluster routing (SEEDS §1.7 `route`): narratives of the soft clusters nearest the query and of their
     * strongest neighbours join the vector candidates. Off by default, as in Tideline, where routing was a CLI test.
     */
    routeClusters: z.boolean().default(false),
  })
  .prefault({});

const injectionConfig = z
  .object({
    maxTokens: z.number().int().positive().default(4000),
    /** T2 pool gate: weight above it (SEEDS §1.6 `weight > 0.6` on Tideline's scale; 0.5 on ours, core/weight-scale). */
    t2MinWeight: z.number().default(WEIGHT_GATES.t2Pool),
    t2Days: z.number().positive().default(7),
    t2Pool: z.number().int().positive().default(10),
    t2Pick: z.number().int().positive().default(3),
    bridgeWindowsHours: z.array(z.number().positive()).default([24, 48, 72]),
    bridgeChunks: z.number().int().positive().default(5),
    bridgeChars: z.number().int().positive().default(400),
    t3Clusters: z.number().int().positive().default(25),
    t3MinMembers: z.number().int().positive().default(5),
    profileLineChars: z.number().int().positive().default(100),
    /** Pinned profiles the memory map shows in full; further pins get one line like any other (SEEDS §1.6 T3b: 2). */
    t3Pinned: z.number().int().min(0).default(2),
    t1MinCosine: z.number().default(0.25),
    t1Top: z.number().int().positive().default(5),
    /** Raw turns (episodes) prefetch shows at most, beside `t1Top` narratives and knowledge entries. */
    t1Turns: z.number().int().min(0).default(20),
    /** Turns shown before and after each recalled turn of the same session (the exchange it belongs to). */
    t1Neighbours: z.number().int().min(0).max(5).default(0),
    /** Token budget of one prefetch block when the caller gives none (whole lines, in rank order). */
    prefetchMaxTokens: z.number().int().positive().default(1200),
    t4Keywords: z.number().int().positive().default(5),
    openThreads: z.number().int().positive().default(5),
  })
  .prefault({});

/**
 * The wake rule (SEEDS §3.3; script/wake-policy): a space sleeps when `minEpisodes` eligible episodes wait or the
 * oldest has waited more than `maxWaitDays`; an episode is eligible once `minAgeMinutes` old.
 */
export const wakeConfig = z
  .object({
    minEpisodes: z.number().int().positive().default(5),
    maxWaitDays: z.number().positive().default(3),
    minAgeMinutes: z.number().min(0).default(30),
  })
  .prefault({});

const sleepConfig = z
  .object({
    wake: wakeConfig,
    /** UTC time of the nightly run (Tulimoa: 02:17 UTC). */
    at: z.string().regex(/^\d{2}:\d{2}$/).default('02:17'),
    model: z.string().default('none'),
    language: z.enum(['en', 'zh']).default('en'),
    openaiBaseUrl: z.string().optional(),
    openaiApiKey: z.string().optional(),
    anthropicBaseUrl: z.string().optional(),
    anthropicApiKey: z.string().optional(),
    /** false for servers that refuse `response_format: json_object` (LM Studio). */
    openaiJsonMode: z.boolean().optional(),
    /** `max_completion_tokens` for OpenAI reasoning models; `max_tokens` (default) everywhere else. */
    openaiMaxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    /** Per-request timeout and retries of the model SDKs (their defaults when unset). */
    timeoutMs: z.number().int().positive().optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    /** Nightly token budget = min(budgetCap, budgetBase + budgetPerSqrtItem · √(memory items)) (docs/sleep.md). */
    budgetBase: z.number().int().min(0).default(13_000),
    budgetPerSqrtItem: z.number().min(0).default(50),
    budgetCap: z.number().int().min(0).default(40_000),
    /**
     * The day's episodes go to the model once this many wait, or once the oldest has waited `maxPacketWaitDays`: a
     * call's instructions are paid per call, so a small day waits to share one (docs/sleep.md). 0: every night.
     */
    minPacketTurns: z.number().int().min(0).default(40),
    maxPacketWaitDays: z.number().min(0).default(7),
  })
  .prefault({});

const httpConfig = z
  .object({
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(7077),
    bodyLimitBytes: z.number().int().positive().default(2_000_000),
    rateLimitPerMinute: z.number().int().positive().default(600),
    /**
     * Reader threads that answer recall beside the main thread (the single writer) when `serve --http` runs on a
     * SQLite file, each with its own read-only WAL connection. Unset: max(2, cores − 1); 0: recall on the main thread.
     */
    readers: z.number().int().min(0).max(64).optional(),
  })
  .prefault({});

const indexConfig = z
  .object({
    /**
     * Also index raw turns by trigram for substring search. Off by default: it triples the cost of ingest
     * (docs/BENCHMARKS.md), and the word index already finds words, numbers, ids and CJK words; narratives and
     * knowledge always have it.
     */
    episodeTrigram: z.boolean().default(false),
  })
  .prefault({});

const postgresConfig = z
  .object({
    /**
     * Connections each process keeps to a PostgreSQL server (pg.Pool `max`). A write transaction holds one for its
     * length while reads take any other, so a server answers reads while it writes. Size the server's
     * `max_connections` for servers × poolSize (docs/scaling.md).
     */
    poolSize: z.number().int().min(1).max(1000).default(10),
    /**
     * Seconds a pooled connection may sit unused before it is closed (pg.Pool `idleTimeoutMillis`); 0 keeps it open.
     * A new connection is a new server process: ~10 ms to open, and its first statements read the catalogs and plan
     * again. With pg's default of 10 s, a server idle between an agent's prompts reopened its connections on the next
     * recall (72-82 ms against 18-21 ms with them kept, at 100k; docs/scaling.md).
     */
    idleSeconds: z.number().int().min(0).max(86_400).default(300),
    /**
     * Connections kept open however long they go unused (pg.Pool `min`; at most poolSize). A personal agent's prompts
     * come minutes apart: past idleSeconds, every connection was closed and the next recall paid for new server
     * processes and their first reads of the tables (docs/scaling.md). Two: a search runs at most two statements at
     * once. 0 closes them all.
     */
    keepConnections: z.number().int().min(0).max(1000).default(2),
    /**
     * A search's statements run on several connections at once (a ranking in two halves, the layers side by side).
     * The CLI's commands other than `serve` turn it off: a process that answers one query would open a second server
     * process for it, whose start and first reads of the catalogs and tables cost more than the statements save
     * (~40 ms of a `recall` or prompt hook at 100k, docs/scaling.md).
     */
    parallelReads: z.boolean().default(true),
    /**
     * Named prepared statements for the fixed statements every search runs, planned once per connection. Turn off
     * behind a pooler that does not keep them across transactions (PgBouncer in transaction mode before 1.21, or
     * with `max_prepared_statements = 0`): docs/scaling.md.
     */
    preparedStatements: z.boolean().default(true),
    /**
     * Pipelined connections: a statement asked of a connection still running one is sent at once (node-postgres's
     * `pipeline`), so a batch write sends its next part before reading the last one's answer (+4-9 % batch ingest,
     * docs/scaling.md). Turn off behind a pooler or proxy that does not take pipelined statements.
     */
    pipeline: z.boolean().default(true),
  })
  .prefault({});

/** The whole configuration. */
export const configSchema = z.object({
  db: z.string().min(1).optional(),
  space: z.string().default('default'),
  agentName: z.string().default('agent'),
  /** Persons whose names in tags become related_entities (SEEDS §1.2 KNOWN_PERSONS, trimmed). */
  knownPersons: z.array(z.string().trim().min(1)).default([]),
  soulPath: z.string().optional(),
  embedder: embedderConfig,
  recall: recallConfig,
  index: indexConfig,
  injection: injectionConfig,
  sleep: sleepConfig,
  http: httpConfig,
  postgres: postgresConfig,
});

/** Parsed configuration. */
export type Config = z.output<typeof configSchema>;
/** Configuration as a caller writes it (every field optional). */
export type ConfigInput = z.input<typeof configSchema>;

/** Validates and fills defaults; throws `invalid_input` naming the bad key. */
export function parseConfig(input: unknown = {}): Config {
  return parseInput(configSchema, input ?? {});
}

/** KNOWN_PERSONS with Tideline's default `{AGENT_NAME, "self"}` when none are configured. */
export function knownPersonsOf(config: Config): string[] {
  return config.knownPersons.length > 0 ? config.knownPersons : [config.agentName, 'self'];
}
