/**
 * Reads configuration: defaults < standard and Tideline environment variables < the config file < TIDEPOOL_*
 * environment < explicit overrides; and says where the config and the default database live (XDG, or the old
 * `~/.tidepool` while it exists).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parseConfig, type Config, type ConfigInput } from '../core/config.js';
import { TidepoolError } from '../core/errors.js';

/** Where Tidepool keeps its files, and whether the old `~/.tidepool` folder is the one in use. */
export interface TidepoolPaths {
  /** The config file read (it may not exist). */
  config: string;
  /** The default memory database (used when neither --db nor an environment variable names one). */
  db: string;
  /** `xdg`: $XDG_CONFIG_HOME/tidepool and $XDG_DATA_HOME/tidepool; `legacy`: ~/.tidepool; `env`: TIDEPOOL_CONFIG. */
  configSource: 'env' | 'xdg' | 'legacy';
  dbSource: 'xdg' | 'legacy';
}

// XDG Base Directory Specification: a relative $XDG_*_HOME is invalid and must be ignored.
function xdgHome(value: string | undefined, fallback: string[], home: string): string {
  return value !== undefined && isAbsolute(value) ? value : join(home, ...fallback);
}

/**
 * Resolves the config file and default database: XDG locations, unless only the old `~/.tidepool` has the file
 * (so a memory made by an earlier version is still found without moving it).
 */
export function tidepoolPaths(env: NodeJS.ProcessEnv = process.env, home: string = env.HOME ?? homedir()): TidepoolPaths {
  const legacyDir = join(home, '.tidepool');
  const xdgConfig = join(xdgHome(env.XDG_CONFIG_HOME, ['.config'], home), 'tidepool', 'config.json');
  const xdgDb = join(xdgHome(env.XDG_DATA_HOME, ['.local', 'share'], home), 'tidepool', 'memory.db');
  const legacyConfig = join(legacyDir, 'config.json');
  const legacyDb = join(legacyDir, 'memory.db');
  const useLegacyConfig = !existsSync(xdgConfig) && existsSync(legacyConfig);
  const useLegacyDb = !existsSync(xdgDb) && existsSync(legacyDb);
  return {
    config: nonEmpty(env.TIDEPOOL_CONFIG) ?? (useLegacyConfig ? legacyConfig : xdgConfig),
    configSource: nonEmpty(env.TIDEPOOL_CONFIG) !== undefined ? 'env' : useLegacyConfig ? 'legacy' : 'xdg',
    db: useLegacyDb ? legacyDb : xdgDb,
    dbSource: useLegacyDb ? 'legacy' : 'xdg',
  };
}

/**
 * Each tool's own transcript folder, for `import --from <tool>`: Claude Code's projects (under CLAUDE_CONFIG_DIR when
 * set), Codex's sessions (under CODEX_HOME) and Hermes' sessions (HERMES_SESSIONS_DIR, SEEDS §1.2).
 */
export function importDirs(env: NodeJS.ProcessEnv = process.env, home: string = env.HOME ?? homedir()): Record<string, string> {
  return {
    'claude-code': join(nonEmpty(env.CLAUDE_CONFIG_DIR) ?? join(home, '.claude'), 'projects'),
    codex: join(nonEmpty(env.CODEX_HOME) ?? join(home, '.codex'), 'sessions'),
    hermes: nonEmpty(env.HERMES_SESSIONS_DIR) ?? join(home, '.hermes', 'sessions'),
  };
}

/** Default location of the memory file. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return tidepoolPaths(env).db;
}

/** The config file path: TIDEPOOL_CONFIG, else the XDG one, else ~/.tidepool/config.json when only that exists. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return tidepoolPaths(env).config;
}

/** Environment variables and the config keys they set (above the config file). */
export const ENV_KEYS: Readonly<Record<string, string>> = {
  TIDEPOOL_DB: 'db',
  TIDEPOOL_SPACE: 'space',
  TIDEPOOL_AGENT_NAME: 'agentName',
  TIDEPOOL_KNOWN_PERSONS: 'knownPersons',
  TIDEPOOL_SOUL: 'soulPath',
  TIDEPOOL_EMBEDDER: 'embedder.provider',
  TIDEPOOL_EMBEDDER_URL: 'embedder.url',
  TIDEPOOL_EMBEDDER_MODEL: 'embedder.model',
  TIDEPOOL_EMBEDDER_KEY: 'embedder.apiKey',
  TIDEPOOL_SLEEP_MODEL: 'sleep.model',
  TIDEPOOL_SLEEP_AT: 'sleep.at',
  TIDEPOOL_SLEEP_LANGUAGE: 'sleep.language',
  TIDEPOOL_OPENAI_BASE_URL: 'sleep.openaiBaseUrl',
  TIDEPOOL_OPENAI_API_KEY: 'sleep.openaiApiKey',
  TIDEPOOL_ANTHROPIC_BASE_URL: 'sleep.anthropicBaseUrl',
  TIDEPOOL_ANTHROPIC_API_KEY: 'sleep.anthropicApiKey',
  TIDEPOOL_HTTP_HOST: 'http.host',
  TIDEPOOL_HTTP_PORT: 'http.port',
  TIDEPOOL_PG_POOL_SIZE: 'postgres.poolSize',
  TIDEPOOL_PG_IDLE_SECONDS: 'postgres.idleSeconds',
  TIDEPOOL_PG_KEEP_CONNECTIONS: 'postgres.keepConnections',
  TIDEPOOL_PG_PREPARED_STATEMENTS: 'postgres.preparedStatements',
  TIDEPOOL_PG_PARALLEL_READS: 'postgres.parallelReads',
  TIDEPOOL_PG_PIPELINE: 'postgres.pipeline',
};

/** Keys whose variable is a number (checked by the schema: a word or a fraction is refused there). */
const NUMERIC_KEYS = new Set(['http.port', 'postgres.poolSize', 'postgres.idleSeconds', 'postgres.keepConnections']);
/** Keys a variable turns off with 0, false, no or off (any other value is on). */
const BOOLEAN_KEYS = new Set(['postgres.preparedStatements', 'postgres.parallelReads', 'postgres.pipeline']);

/**
 * Variables other tools already set, read below the config file so a key written there still wins: the model
 * SDKs' standard ones, and Tideline's (SEEDS §1.2), so a Tideline user switches by changing one command.
 */
export const FALLBACK_ENV_KEYS: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: 'sleep.openaiApiKey',
  OPENAI_BASE_URL: 'sleep.openaiBaseUrl',
  ANTHROPIC_API_KEY: 'sleep.anthropicApiKey',
  ANTHROPIC_BASE_URL: 'sleep.anthropicBaseUrl',
  MEMORY_MCP_DB: 'db',
  AGENT_NAME: 'agentName',
  KNOWN_PERSONS: 'knownPersons',
  EMBEDDING_API_URL: 'embedder.url',
  EMBEDDING_API_KEY: 'embedder.apiKey',
  EMBEDDING_MODEL: 'embedder.model',
};

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    o[k] = typeof o[k] === 'object' && o[k] !== null ? o[k] : {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1]!] = value;
}

function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (v === undefined) continue;
    const prev = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object' && !Array.isArray(prev)
        ? merge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/** The config keys a set of variables gives, converted to the schema's types. */
function fromVariables(keys: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, home: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(keys)) {
    const v = nonEmpty(env[name]);
    if (v === undefined) continue;
    if (key === 'knownPersons') setPath(out, key, v.split(',').map((s) => s.trim()).filter(Boolean));
    else if (NUMERIC_KEYS.has(key)) setPath(out, key, Number(v));
    else if (BOOLEAN_KEYS.has(key)) setPath(out, key, !/^(0|false|no|off)$/i.test(v));
    // Tideline's docs write MEMORY_MCP_DB=~/.tideline/memory.db, which it never expanded (SEEDS §1.2 BUG).
    else if (key === 'db') setPath(out, key, v.startsWith('~/') ? join(home, v.slice(2)) : v);
    else setPath(out, key, v);
  }
  // Tideline's embedding client (SEEDS §1.2): a URL on this machine speaks its batch protocol ({texts}); any other
  // is "remote mode", an OpenAI-style {model, input} call with EMBEDDING_MODEL defaulting to embedding-3.
  const url = nonEmpty(env.EMBEDDING_API_URL);
  if (keys === FALLBACK_ENV_KEYS && url !== undefined) {
    const local = /localhost|127\.0\.0\.1/.test(url);
    setPath(out, 'embedder.provider', local ? 'tideline' : 'openai');
    if (!local && nonEmpty(env.EMBEDDING_MODEL) === undefined) setPath(out, 'embedder.model', 'embedding-3');
  }
  return out;
}

/** Loads and validates the layered configuration. */
export function loadConfig(overrides: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const home = env.HOME ?? homedir();
  let file: Record<string, unknown> = {};
  const p = tidepoolPaths(env, home).config;
  if (existsSync(p)) {
    try {
      file = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new TidepoolError('invalid_input', `config file ${p} is not valid JSON: ${(e as Error).message}`);
    }
  }
  const layered = merge(merge(merge(fromVariables(FALLBACK_ENV_KEYS, env, home), file), fromVariables(ENV_KEYS, env, home)), overrides as Record<string, unknown>);
  // An OpenAI embedder without its own key uses the OpenAI key, as the OpenAI SDK itself would.
  const embedder = layered.embedder as Record<string, unknown> | undefined;
  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  if (embedder?.provider === 'openai' && embedder.apiKey === undefined && openaiKey !== undefined) embedder.apiKey = openaiKey;
  return parseConfig(layered);
}
