/** Builds the MCP server of one connection: the chosen toolsets, the context resources and prompt, the wake state. */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TIDEPOOL_VERSION, type Tidepool } from '../../app/tidepool.js';
import { resolveToolsets } from './toolsets.js';
import type { Toolset } from './toolset.js';

/** Options of one server. */
export interface CreateMcpServerOptions {
  /** `--toolsets`: names, comma-separated or a list; `all`; default `core`. */
  toolsets?: string | readonly string[];
  /** The injection session (default: a new id per server). */
  session?: string;
  /** Reads SOUL.md when the context block is built. */
  soul?: () => Promise<string | undefined>;
  /** May `forget` erase the whole space; default true (stdio, the local user). */
  eraseSpace?: boolean;
  /**
   * A directory the journal tools may use without registration, and their default `root` (the server's working
   * directory for the local user). Never set it for a token caller: it would be shared by every space. Default none:
   * only the workspaces registered to the space.
   */
  journalHome?: string;
}

/** Text shown when the memory has nothing to inject yet. */
export const EMPTY_CONTEXT = 'Memory is empty so far: nothing to inject yet. Use remember and record to build it.';

/** The wake state sent at initialize: who I am (one line), the latest briefing headline, how to use the tools. */
export async function wakeState(memory: Tidepool, toolsets: readonly Toolset[]): Promise<string> {
  const concept = await memory.selfConcept();
  const first = concept.find((c) => c.field === 'fact') ?? concept[0];
  const identity = first ? first.content.replace(/\s+/g, ' ').trim() : '';
  const briefing = await memory.latestHeadline();
  const lines = [
    `Tidepool long-term memory (space "${memory.space}").`,
    identity ? `Identity: ${identity.length > 200 ? `${identity.slice(0, 199)}…` : identity}` : 'Identity: not written yet.',
    briefing ? `Latest briefing (${briefing.day}): ${briefing.headline}` : "No briefing yet: the first night's sleep writes one.",
    'Read the resource tidepool://context (or the prompt "context") at session start for the full memory block.',
    ...toolsets.map((t) => `${t.name}: ${t.guide}`),
    'Never store credentials; store where they live instead.',
  ];
  return lines.join('\n');
}

/**
 * Creates a server for one MCP connection. Tools call the memory in-process.
 * @example const server = await createMcpServer(memory, { toolsets: 'core,tideline' }); await server.connect(transport);
 */
export async function createMcpServer(memory: Tidepool, opts: CreateMcpServerOptions = {}): Promise<McpServer> {
  const toolsets = resolveToolsets(opts.toolsets ?? 'core');
  const session = opts.session ?? `mcp-${randomUUID()}`;
  const soul = opts.soul ?? (async () => undefined);
  const server = new McpServer(
    { name: 'tidepool', title: 'Tidepool memory', version: TIDEPOOL_VERSION },
    { instructions: await wakeState(memory, toolsets) },
  );
  for (const t of toolsets) t.register(server, { memory, session, soul, eraseSpace: opts.eraseSpace ?? true, journalHome: opts.journalHome });

  const contextText = async (maxTokens?: number) => {
    const block = await memory.buildContext({ session, maxTokens, soul: await soul() });
    return block.text || EMPTY_CONTEXT;
  };
  server.registerResource(
    'context',
    'tidepool://context',
    { title: 'Session context', description: 'The session-start memory block: identity, goal, what the memory knows (preferences, facts, open problems, needs review), weighty recent memories, last conversation, memory map.', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await contextText() }] }),
  );
  server.registerResource(
    'briefing-today',
    'tidepool://briefing/today',
    { title: "Today's briefing", description: 'The morning briefing of the current UTC day.', mimeType: 'text/markdown' },
    async (uri) => {
      const r = await memory.readTodayBriefing();
      const text = r.kind === 'found' ? (r.briefing.body.includes(r.briefing.headline) ? r.briefing.body : `${r.briefing.headline}\n\n${r.briefing.body}`) : r.message;
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );
  server.registerPrompt(
    'context',
    {
      title: 'Session context',
      description: 'The session-start memory block, to put at the top of a conversation.',
      argsSchema: { max_tokens: z.string().regex(/^\d+$/, 'must be a whole number').optional().describe('token budget (default 4000)') },
    },
    async ({ max_tokens }) => ({
      description: 'Tidepool session context',
      messages: [{ role: 'user', content: { type: 'text', text: await contextText(max_tokens ? Number(max_tokens) : undefined) } }],
    }),
  );
  return server;
}
