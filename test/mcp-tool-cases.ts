/** Shared by the MCP tests: every tool of every toolset, a valid call and an invalid one naming its bad field. */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, expect } from 'vitest';

/**
 * A fresh workspace for the journal tools, removed after the calling test file. MCP confines journal roots to the
 * server's working directory and to registered workspaces (DESIGN §10), so each test registers it (or starts the
 * server in it) before calling them. Call it at the top of a test file: test files share this module when vitest
 * does not isolate them, so a root made here at import would be one root for every file of a worker.
 */
export function journalRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-mcp-journal-')));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** Stands for the journal root in {@link TOOL_CASES}; {@link toolCases} puts a real one in its place. */
const ROOT = '<journal root>';

/** Tool names per toolset, as the issue names them (pinned). */
export const TOOL_NAMES = {
  core: ['remember', 'record', 'recall', 'know', 'timeline', 'briefing', 'self', 'gaps', 'forget'],
  tideline: [
    'memory_write', 'memory_recall', 'memory_search', 'memory_write_profile', 'memory_read_profiles', 'memory_write_self_concept',
    'memory_read_self_concept', 'memory_write_snapshot', 'memory_read_snapshot', 'memory_write_thread', 'memory_read_threads',
    'context_record', 'context_search', 'context_timeline', 'memory_graph', 'memory_attention_heatmap', 'memory_soft_clusters',
  ],
  continuity: ['set_goal', 'checkpoint', 'get_pending'],
  journal: ['journal_search', 'journal_read', 'journal_add', 'journal_index', 'journal_lint', 'journal_tend', 'journal_stats'],
  sleep: ['sleep_status', 'sleep_next', 'sleep_submit', 'review'],
} as const;

/** One tool's calls: `valid` must succeed (and `expect`, when given, appear in its text); `invalid` must fail naming `field`. */
export interface ToolCase {
  name: string;
  valid: Record<string, unknown>;
  expect?: RegExp;
  invalid: { args: Record<string, unknown>; field: string };
}

/** In call order: writes first, so reads find something; forget last. */
export const TOOL_CASES: readonly ToolCase[] = [
  { name: 'remember', valid: { text: 'The staging database listens on port 6543', key: 'staging.db.port', importance: 4, tags: ['infra'] }, expect: /Remembered k\d+/, invalid: { args: { text: 'x', importance: 9 }, field: 'importance' } },
  {
    name: 'record',
    valid: { turns: [{ role: 'user', content: 'Can you check the staging database?', session: 's1' }, { role: 'assistant', content: 'It listens on 6543.', session: 's1' }] },
    expect: /Recorded 2 episode/,
    invalid: { args: { turns: [{ role: 'robot', content: 'beep' }] }, field: 'role' },
  },
  { name: 'recall', valid: { query: 'staging database', limit: 5, max_tokens: 500 }, expect: /6543/, invalid: { args: { query: 42 }, field: 'query' } },
  { name: 'know', valid: { query: 'staging' }, expect: /6543/, invalid: { args: { kinds: ['gossip'] }, field: 'kinds' } },
  { name: 'timeline', valid: { limit: 5 }, expect: /staging/, invalid: { args: { order: 'sideways' }, field: 'order' } },
  { name: 'briefing', valid: {}, expect: /no briefing yet/, invalid: { args: { day: 'yesterday' }, field: 'day' } },
  { name: 'self', valid: {}, expect: /no self-image yet/, invalid: { args: { verbose: true }, field: 'verbose' } },
  { name: 'gaps', valid: { limit: 3 }, invalid: { args: { limit: 0 }, field: 'limit' } },
  {
    name: 'memory_write',
    valid: { gesture: 'I finally fixed the sync race at dawn', cognition_direction: 'locks need owners', importance: 4, emotional: 3, unresolved: 2, tags: ['sync', 'debugging'], entities_role: 'Ana=judge+act; Ben=review' },
    expect: /Wrote n\d+: weight=/,
    invalid: { args: { importance: 4 }, field: 'gesture' },
  },
  { name: 'memory_recall', valid: { tags: ['sync'] }, expect: /sync race/, invalid: { args: { narrative_type: 'poem' }, field: 'narrative_type' } },
  { name: 'memory_search', valid: { query: 'sync race' }, expect: /sync race/, invalid: { args: { query: '' }, field: 'query' } },
  { name: 'memory_write_profile', valid: { entity: 'Ana', content: 'Prefers short answers.', profile_type: 'impression' }, expect: /Profile Ana\/impression created/, invalid: { args: { entity: 'Ana', content: 'x', profile_type: 'enemy' }, field: 'profile_type' } },
  { name: 'memory_read_profiles', valid: { entity: 'Ana' }, expect: /short answers/, invalid: { args: { entity: '' }, field: 'entity' } },
  { name: 'memory_write_self_concept', valid: { field: 'terrain', content: 'I work in a TypeScript monorepo.' }, expect: /terrain set/, invalid: { args: { field: 'mood', content: 'x' }, field: 'field' } },
  { name: 'memory_read_self_concept', valid: {}, expect: /TypeScript monorepo/, invalid: { args: { verbose: true }, field: 'verbose' } },
  { name: 'memory_write_snapshot', valid: { content: 'Focused, slightly tired.' }, expect: /Snapshot \d+ saved/, invalid: { args: { content: '' }, field: 'content' } },
  { name: 'memory_read_snapshot', valid: { limit: 1 }, expect: /slightly tired/, invalid: { args: { limit: -1 }, field: 'limit' } },
  { name: 'memory_write_thread', valid: { content: 'Why does sync stall on slow disks?', importance: 4 }, expect: /Thread \d+ opened/, invalid: { args: { content: 'x', status: 'closed' }, field: 'status' } },
  { name: 'memory_read_threads', valid: {}, expect: /slow disks/, invalid: { args: { status: 'closed' }, field: 'status' } },
  { name: 'context_record', valid: { content: 'Deployed v2 to staging.', metadata: { session: 's2' } }, expect: /Recorded e\d+/, invalid: { args: { metadata: {} }, field: 'content' } },
  { name: 'context_search', valid: { query: 'deployed staging' }, expect: /Deployed v2/, invalid: { args: {}, field: 'query' } },
  { name: 'context_timeline', valid: { limit: 3 }, expect: /Deployed v2/, invalid: { args: { offset: -1 }, field: 'offset' } },
  { name: 'memory_graph', valid: {}, expect: /entity graph is empty/, invalid: { args: { pair: 'Ana' }, field: 'pair' } },
  { name: 'memory_attention_heatmap', valid: { days: 7 }, expect: /Attention, last 7 days/, invalid: { args: { days: 0 }, field: 'days' } },
  { name: 'memory_soft_clusters', valid: {}, expect: /no soft clusters yet/, invalid: { args: { cluster_id: 'x' }, field: 'cluster_id' } },
  { name: 'set_goal', valid: { goal: 'Ship the sync fix' }, expect: /Active goal: Ship the sync fix/, invalid: { args: {}, field: 'goal' } },
  { name: 'checkpoint', valid: { plan: 'done: repro; next: patch the lock' }, expect: /Checkpoint \d+ saved/, invalid: { args: { plan: 5 }, field: 'plan' } },
  { name: 'get_pending', valid: {}, expect: /Goal: Ship the sync fix/, invalid: { args: { limit: 1000 }, field: 'limit' } },
  {
    name: 'journal_add',
    valid: { root: ROOT, heading: '修好了同步', content: '调试了一上午，终于找到竞态。', time: '09:10' },
    expect: /Added to archive\/hot\/\d{4}-\d\d-\d\d\.md:3 \(new day file\): ## 【09:10 修好了同步】/,
    invalid: { args: { root: ROOT, heading: 'h', content: 'c', time: '25:99' }, field: 'time' },
  },
  { name: 'journal_search', valid: { root: ROOT, query: '竞态', scope: 'all' }, expect: /终于找到竞态/, invalid: { args: { root: ROOT, query: 'x', scope: 'cold' }, field: 'scope' } },
  { name: 'journal_read', valid: { root: ROOT }, expect: /## 【09:10 修好了同步】/, invalid: { args: { root: ROOT, date: '../../etc/passwd' }, field: 'date' } },
  { name: 'journal_index', valid: { root: ROOT }, expect: /1 hot and 0 cold day\(s\)/, invalid: { args: { root: 7 }, field: 'root' } },
  { name: 'journal_lint', valid: { root: ROOT }, expect: /No problems found/, invalid: { args: { verbose: true }, field: 'verbose' } },
  { name: 'journal_tend', valid: { root: ROOT, dry_run: true }, expect: /^Dry run \(nothing changed\)/, invalid: { args: { dry_run: 'yes' }, field: 'dry_run' } },
  { name: 'journal_stats', valid: { root: ROOT }, expect: /1 hot, 0 cold/, invalid: { args: { root: '' }, field: 'root' } },
  { name: 'sleep_status', valid: {}, expect: /Sleep status of space/, invalid: { args: { verbose: true }, field: 'verbose' } },
  { name: 'sleep_next', valid: { wait_seconds: 5 }, expect: /night is over|nothing to consolidate|staying awake/, invalid: { args: { wait_seconds: 1000 }, field: 'wait_seconds' } },
  { name: 'sleep_submit', valid: { packet_id: 'packet-999', answer: '{}' }, expect: /not waiting/, invalid: { args: { answer: '{}' }, field: 'packet_id' } },
  { name: 'forget', valid: { key: 'staging.db.port' }, expect: /Forgot 1 version/, invalid: { args: { all: true }, field: 'confirm' } },
  // After forget: the fuzz test seeds each tool by its place here, so a new tool goes last.
  { name: 'review', valid: {}, expect: /Nothing needs review/, invalid: { args: { id: 'k1', verdict: 'maybe' }, field: 'verdict' } },
];

/** Text of a tool result. */
export function resultText(r: unknown): string {
  return ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');
}

/** {@link TOOL_CASES} with the journal tools' root set to `root`. */
export function toolCases(root: string): ToolCase[] {
  const put = (args: Record<string, unknown>) => (args.root === ROOT ? { ...args, root } : args);
  return TOOL_CASES.map((c) => ({ ...c, valid: put(c.valid), invalid: { ...c.invalid, args: put(c.invalid.args) } }));
}

/**
 * Calls every case on `client` (the journal tools' in `root`, which `names` must then include): valid calls succeed
 * with text and structured content, invalid ones name their field.
 */
export async function exerciseAllTools(client: Client, names: ReadonlySet<string>, root = ROOT): Promise<number> {
  let calls = 0;
  for (const c of toolCases(root).filter((t) => names.has(t.name))) {
    const ok = await client.callTool({ name: c.name, arguments: c.valid });
    const text = resultText(ok);
    expect(ok.isError, `${c.name} valid call failed: ${text}`).toBeFalsy();
    expect(typeof ok.structuredContent, `${c.name} returns structured content`).toBe('object');
    if (c.expect) expect(text, c.name).toMatch(c.expect);
    const bad = await client.callTool({ name: c.name, arguments: c.invalid.args });
    expect(bad.isError, `${c.name} accepted ${JSON.stringify(c.invalid.args)}`).toBe(true);
    expect(resultText(bad), `${c.name} error names ${c.invalid.field}`).toContain(c.invalid.field);
    calls += 2;
  }
  return calls;
}
