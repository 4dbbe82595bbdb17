/** The AGENTS.md hint block for Tidepool (DESIGN §4, SEEDS §2.10), kept by the journal's `syncAgentsHint`. */
import { DEFAULT_AGENTS_HINT, syncAgentsHint, type AgentsHintKind } from '../../journal/agents-hint.js';

/** The hint for a workspace that reaches memory through the MCP tools: where memory is, when to read, how to write. */
export const TIDEPOOL_AGENTS_HINT = `## Memory (Tidepool)

- This agent has long-term memory through the Tidepool MCP server. At the start of a task read the
  \`tidepool://context\` resource (or call \`recall\` with the topic); call \`recall\` before answering about past work.
- Write durable facts and decisions back with \`remember\` (a \`key\` lets a later value replace it); correct a wrong
  memory with \`forget\` and a new \`remember\`.
- Never write credentials (passwords, tokens, keys) into memory; store where they live instead.`;

/**
 * Adds, updates (only when changed) or removes the hint block of `<root>/AGENTS.md`. A workspace with a journal
 * (`memory/`) gets the journal's own hint, so the journal's daily tend and this command write the same block.
 * @example await syncTidepoolHint('/work/app', { enabled: true, journal: false })
 */
export async function syncTidepoolHint(root: string, opts: { enabled: boolean; journal: boolean }): Promise<{ kind: AgentsHintKind; path: string }> {
  return syncAgentsHint(root, { enabled: opts.enabled, content: opts.journal ? DEFAULT_AGENTS_HINT : TIDEPOOL_AGENTS_HINT });
}
