/** Reads configuration: defaults < ~/.tidepool/config.json < TIDEPOOL_* environment < explicit overrides. */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type Config, type ConfigInput } from '../core/config.js';
import { TidepoolError } from '../core/errors.js';

/** Default location of the memory file. */
export function defaultDbPath(): string {
  return join(homedir(), '.tidepool', 'memory.db');
}

/** The config file path: TIDEPOOL_CONFIG or ~/.tidepool/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TIDEPOOL_CONFIG ?? join(homedir(), '.tidepool', 'config.json');
}

/** Environment variables and the config keys they set. */
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
};

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

/** Loads and validates the layered configuration. */
export function loadConfig(overrides: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  let file: Record<string, unknown> = {};
  const p = configPath(env);
  if (existsSync(p)) {
    try {
      file = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new TidepoolError('invalid_input', `config file ${p} is not valid JSON: ${(e as Error).message}`);
    }
  }
  const fromEnv: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (key === 'knownPersons') setPath(fromEnv, key, v.split(',').map((s) => s.trim()).filter(Boolean));
    else if (key === 'http.port' || key === 'postgres.poolSize') setPath(fromEnv, key, Number(v));
    else setPath(fromEnv, key, v);
  }
  return parseConfig(merge(merge(file, fromEnv), overrides as Record<string, unknown>));
}
