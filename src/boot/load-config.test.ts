/** Config layering: standard and Tideline variables below the config file, TIDEPOOL_* above it; XDG paths and ~/.tidepool. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseModelSpec } from '../sleep/llm/parse-model-spec.js';
import { importDirs, loadConfig, tidepoolPaths } from './load-config.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tidepool-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** An environment with only what the test gives (never the machine's own keys). */
const env = (vars: Record<string, string> = {}): NodeJS.ProcessEnv => ({ HOME: home, ...vars });

function writeConfig(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

describe('loadConfig with standard and Tideline variables', () => {
  it('uses OPENAI_API_KEY, OPENAI_BASE_URL and ANTHROPIC_API_KEY when nothing else sets a key', () => {
    const c = loadConfig({}, env({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'https://llm.example/v1', ANTHROPIC_API_KEY: 'ak-env' }));
    expect(c.sleep).toMatchObject({ openaiApiKey: 'sk-env', openaiBaseUrl: 'https://llm.example/v1', anthropicApiKey: 'ak-env' });
    expect(parseModelSpec('openai:gpt-4o-mini', c.sleep)).toMatchObject({ apiKey: 'sk-env', baseURL: 'https://llm.example/v1' });
    expect(parseModelSpec('anthropic:claude-haiku-4-5', c.sleep)).toMatchObject({ apiKey: 'ak-env' });
  });

  it('lets the config file and TIDEPOOL_* win over the standard variables', () => {
    writeConfig(join(home, '.config', 'tidepool', 'config.json'), { sleep: { openaiApiKey: 'sk-file' } });
    expect(loadConfig({}, env({ OPENAI_API_KEY: 'sk-env' })).sleep.openaiApiKey).toBe('sk-file');
    expect(loadConfig({}, env({ OPENAI_API_KEY: 'sk-env', TIDEPOOL_OPENAI_API_KEY: 'sk-tp' })).sleep.openaiApiKey).toBe('sk-tp');
  });

  it('names the variable to set when a hosted model has no key', () => {
    const c = loadConfig({}, env());
    expect(() => parseModelSpec('openai:gpt-4o-mini', c.sleep)).toThrow(/set OPENAI_API_KEY/);
    expect(() => parseModelSpec('anthropic:claude-haiku-4-5', c.sleep)).toThrow(/set ANTHROPIC_API_KEY/);
  });

  it('reads MEMORY_MCP_DB (~ expanded), AGENT_NAME, KNOWN_PERSONS (trimmed) and a local EMBEDDING_API_URL as Tideline meant them', () => {
    const c = loadConfig({}, env({ MEMORY_MCP_DB: '~/memory/mcp_memory.db', AGENT_NAME: 'hermes', KNOWN_PERSONS: 'Ana, Ben', EMBEDDING_API_URL: 'http://localhost:18001/embed_batch' }));
    expect(c.db).toBe(join(home, 'memory', 'mcp_memory.db'));
    expect(c.agentName).toBe('hermes');
    expect(c.knownPersons).toEqual(['Ana', 'Ben']);
    expect(c.embedder).toMatchObject({ provider: 'tideline', url: 'http://localhost:18001/embed_batch' });
    expect(loadConfig({}, env({ MEMORY_MCP_DB: '/x/m.db', TIDEPOOL_DB: '/y/t.db' })).db).toBe('/y/t.db');
  });

  it('treats a remote EMBEDDING_API_URL as Tideline remote mode: {model, input} with embedding-3 and the key', () => {
    const c = loadConfig({}, env({ EMBEDDING_API_URL: 'https://open.bigmodel.cn/api/paas/v4/embeddings', EMBEDDING_API_KEY: 'zk' }));
    expect(c.embedder).toMatchObject({ provider: 'openai', model: 'embedding-3', apiKey: 'zk' });
  });
});

describe('where the config and the memory live', () => {
  it('uses $XDG_CONFIG_HOME/tidepool and $XDG_DATA_HOME/tidepool, defaulting to ~/.config and ~/.local/share', () => {
    expect(tidepoolPaths(env(), home)).toMatchObject({
      config: join(home, '.config', 'tidepool', 'config.json'), configSource: 'xdg',
      db: join(home, '.local', 'share', 'tidepool', 'memory.db'), dbSource: 'xdg',
    });
    const x = tidepoolPaths(env({ XDG_CONFIG_HOME: join(home, 'cfg'), XDG_DATA_HOME: join(home, 'data') }), home);
    expect(x).toMatchObject({ config: join(home, 'cfg', 'tidepool', 'config.json'), db: join(home, 'data', 'tidepool', 'memory.db') });
    // A relative XDG path is invalid by the spec and ignored.
    expect(tidepoolPaths(env({ XDG_DATA_HOME: 'rel' }), home).db).toBe(join(home, '.local', 'share', 'tidepool', 'memory.db'));
  });

  it('still reads the old ~/.tidepool while it exists and the XDG files do not', () => {
    writeConfig(join(home, '.tidepool', 'config.json'), { agentName: 'old-agent' });
    writeFileSync(join(home, '.tidepool', 'memory.db'), '');
    expect(tidepoolPaths(env(), home)).toMatchObject({
      config: join(home, '.tidepool', 'config.json'), configSource: 'legacy',
      db: join(home, '.tidepool', 'memory.db'), dbSource: 'legacy',
    });
    expect(loadConfig({}, env()).agentName).toBe('old-agent');
    writeConfig(join(home, '.config', 'tidepool', 'config.json'), { agentName: 'new-agent' });
    expect(loadConfig({}, env()).agentName).toBe('new-agent');
  });

  it('finds each tool\'s transcripts folder for import --from', () => {
    expect(importDirs(env(), home)).toEqual({
      'claude-code': join(home, '.claude', 'projects'), codex: join(home, '.codex', 'sessions'), hermes: join(home, '.hermes', 'sessions'),
    });
    expect(importDirs(env({ HERMES_SESSIONS_DIR: '/h/s', CLAUDE_CONFIG_DIR: '/c' }), home)).toMatchObject({ 'claude-code': '/c/projects', hermes: '/h/s' });
  });
});
