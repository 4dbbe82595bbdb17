/** Turns a tool's output into readable text plus `structuredContent`, and any error into an `isError` result. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { snakeKeys } from '../../app/wire-format.js';
import { isTidepoolError, type TidepoolErrorCode } from '../../core/errors.js';

/** What a tool returns: the text an agent reads and the same facts as JSON. */
export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
}

/** What the agent should do next, per error code (STYLE §5: MCP errors tell the agent what to do next). */
const NEXT_STEP: Partial<Record<TidepoolErrorCode, string>> = {
  invalid_input: 'Fix that argument and call the tool again.',
  not_found: 'Check the id or key: recall, know or timeline list the ids that exist.',
  secret_refused: 'Do not store the secret; remember where it is kept instead (a vault path, an env var name).',
  too_large: 'Send less: split the text or the batch into smaller calls.',
  conflict: 'Read the current state first, then retry with it.',
  unavailable: 'A dependency is down; retry later. Lexical recall keeps working without an embedder.',
  rate_limited: 'Wait a moment before calling again.',
  forbidden: 'This caller may not do that; ask the user to allow it (a token with the needed scope, a registered workspace).',
  unauthorized: 'Authenticate first.',
  locked: 'Another process holds the memory; retry in a few seconds.',
};

/** A successful result. */
export function toolResult(out: ToolOutput): CallToolResult {
  return { content: [{ type: 'text', text: out.text }], structuredContent: snakeKeys(out.data) as Record<string, unknown> };
}

/** An `isError` result naming the problem, the field when there is one, and the next step. */
export function toolError(e: unknown): CallToolResult {
  if (isTidepoolError(e)) {
    const next = NEXT_STEP[e.code] ?? 'Report this to the user; retrying will not help.';
    return {
      isError: true,
      content: [{ type: 'text', text: `Error (${e.code}): ${e.message}. ${next}` }],
      structuredContent: { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } },
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    isError: true,
    content: [{ type: 'text', text: `Error (internal): ${message}. Report this to the user; retrying will not help.` }],
    structuredContent: { error: { code: 'internal', message } },
  };
}

/** Runs a tool body, translating errors in this one place. */
export async function runTool(fn: () => Promise<ToolOutput>): Promise<CallToolResult> {
  try {
    return toolResult(await fn());
  } catch (e) {
    return toolError(e);
  }
}
