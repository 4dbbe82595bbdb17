/**
 * Turn capture for runtimes: each finished turn (`syncTurn`), the unsaved rest at session end, the messages a
 * compression is about to drop (with a rescue reminder), and Claude Code transcripts replayed idempotently.
 */
import { WEIGHT_GATES } from '../../core/weight-scale.js';
import { z } from 'zod';
import { label, parseInput, MAX_BATCH, type RecordTurn } from '../../core/schemas.js';
import { parseClaudeCode } from '../../script/import-formats/parse-claude-code.js';
import type { AppContext } from '../app-context.js';
import { addPendingEvent, currentGoal } from '../continuity.js';
import { redact } from '../guard-secrets.js';
import { record } from '../record.js';
import { oneLine, stripBracketTags } from './inject-text.js';
import { labelLanguage, relativeTime } from './relative-time.js';
import { narrativeLine } from './t2-prefetch-pool.js';

/** A chat message as runtimes hand it over: text, or a list of parts (OpenAI and Anthropic shapes). */
export const providerMessage = z.object({ role: z.string().min(1), content: z.unknown() }).passthrough();
/** One runtime message. */
export type ProviderMessage = z.input<typeof providerMessage>;
const messagesInput = z.object({ session: label.optional(), messages: z.array(providerMessage).max(MAX_BATCH) });

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);
// SEEDS §1.6 on_pre_compress: texts under 10 characters are dropped, duplicates judged by their first 200.
const RESCUE_MIN_CHARS = 10;
const RESCUE_DEDUP_CHARS = 200;
// SEEDS §1.6: the rescue reminder shows the 3 newest narratives weighing more than 0.7 (Tideline's scale).
const RESCUE_REMINDERS = 3;
const RESCUE_MIN_WEIGHT = WEIGHT_GATES.rescue;

/** The text of a message: a string, or its text parts joined (images and other parts are skipped). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) => (typeof p === 'string' ? p : p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function roleOf(role: string): RecordTurn['role'] {
  const r = role.toLowerCase();
  return (ROLES.has(r) ? r : 'user') as RecordTurn['role'];
}

/** Contents already recorded in `session`, as `role\0content` keys (redacted, as they were stored). */
async function sessionContents(ctx: AppContext, session: string | undefined): Promise<Set<string>> {
  const keys = new Set<string>();
  if (!session) return keys;
  for (let offset = 0; ; offset += 1000) {
    const page = await ctx.scope.episodes.timeline({ session, limit: 1000, offset, order: 'asc', includeArchived: true });
    for (const e of page.items) keys.add(`${e.role ?? ''}\u0000${e.content}`);
    if (page.items.length < 1000) return keys;
  }
}

/** Records one finished exchange (Tideline `sync_turn`); empty sides are skipped. */
export async function syncTurn(ctx: AppContext, turn: { user?: string; assistant?: string; session?: string }): Promise<{ ids: string[] }> {
  const turns: RecordTurn[] = [];
  if (turn.user?.trim()) turns.push({ role: 'user', content: turn.user, session: turn.session });
  if (turn.assistant?.trim()) turns.push({ role: 'assistant', content: turn.assistant, session: turn.session });
  if (turns.length === 0) return { ids: [] };
  const r = await record(ctx, { turns }, { source: 'sync' });
  return { ids: r.ids };
}

/** Stores the messages not yet recorded in `session` (exact role and content), marked `session_end`. */
export async function syncSessionEnd(ctx: AppContext, raw: { session?: string; messages: ProviderMessage[] }): Promise<{ recorded: number; skipped: number }> {
  const input = parseInput(messagesInput, raw);
  const have = await sessionContents(ctx, input.session);
  const turns: RecordTurn[] = [];
  let skipped = 0;
  for (const m of input.messages) {
    const role = roleOf(m.role);
    const text = messageText(m.content);
    if (role === 'system' || !text.trim()) continue;
    const key = `${role}\u0000${redact(text).text}`;
    if (have.has(key)) {
      skipped++;
      continue;
    }
    have.add(key);
    turns.push({ role, content: text, session: input.session, meta: { session_end: true } });
  }
  if (turns.length > 0) await record(ctx, { turns }, { source: 'session_end' });
  return { recorded: turns.length, skipped };
}

/** What a pre-compression rescue saved and the reminder for the compressor. */
export interface RescueResult {
  rescued: number;
  /** Markdown reminding the compressed context of the weightiest recent memories, the goal and the checkpoint. */
  reminder: string;
}

/**
 * Before a compression drops messages: stores those not yet recorded (system messages, texts under 10 characters
 * and repeats of the same first 200 characters are skipped), leaves a `compaction` event for `get_pending`, and
 * returns a reminder of the 3 newest narratives above Tideline's weight 0.7 plus the active goal (SEEDS §1.6).
 */
export async function rescueBeforeCompression(ctx: AppContext, raw: { session?: string; messages: ProviderMessage[] }): Promise<RescueResult> {
  const input = parseInput(messagesInput, raw);
  const have = await sessionContents(ctx, input.session);
  const heads = new Set<string>();
  const turns: RecordTurn[] = [];
  for (const m of input.messages) {
    const role = roleOf(m.role);
    const text = messageText(m.content).trim();
    if (role === 'system' || [...text].length < RESCUE_MIN_CHARS) continue;
    const head = text.slice(0, RESCUE_DEDUP_CHARS);
    if (heads.has(head) || have.has(`${role}\u0000${redact(text).text}`)) continue;
    heads.add(head);
    turns.push({ role, content: text, session: input.session, meta: { rescued: true } });
  }
  if (turns.length > 0) await record(ctx, { turns }, { source: 'pre_compress' });
  await addPendingEvent(ctx, 'compaction', { rescued: turns.length }, input.session ?? null);
  return { rescued: turns.length, reminder: await rescueReminder(ctx) };
}

async function rescueReminder(ctx: AppContext): Promise<string> {
  const now = ctx.clock.now();
  const lang = labelLanguage(ctx.config);
  const lines: string[] = [];
  const { goal, checkpoint } = await currentGoal(ctx);
  if (goal) lines.push(`- Goal: ${oneLine(goal.text)}`);
  if (checkpoint && (!goal || checkpoint.goalId === goal.id)) lines.push(`- Checkpoint: ${oneLine(checkpoint.plan)}`);
  const weighty = await ctx.scope.narratives.list({ limit: RESCUE_REMINDERS, minWeight: RESCUE_MIN_WEIGHT });
  for (const n of weighty) lines.push(`- ${stripBracketTags(narrativeLine(n))} (${relativeTime(n.createdAt, now, lang)})`);
  return lines.length === 0 ? '' : `## Keep in mind (rescued before compression)\n${lines.join('\n')}`;
}

/** Records a Claude Code transcript; its stable per-block refs make a replay record nothing twice. */
export async function recordClaudeCodeTranscript(
  ctx: AppContext,
  input: { text: string; fileId: string; source?: string },
): Promise<{ recorded: number; skipped: number; warnings: string[] }> {
  const parsed = parseClaudeCode(input.text, { fileId: input.fileId });
  let recorded = 0;
  let skipped = 0;
  for (let i = 0; i < parsed.turns.length; i += MAX_BATCH) {
    const turns: RecordTurn[] = parsed.turns.slice(i, i + MAX_BATCH).map((t) => ({
      role: t.role, content: t.content, session: t.session, tool: t.tool, ok: t.ok, at: t.at, ref: t.ref, meta: t.meta,
      ...(t.meta?.kind === 'tool_call' ? { kind: 'tool_call' as const } : t.meta?.kind === 'tool_result' ? { kind: 'tool_result' as const } : {}),
    }));
    const r = await record(ctx, { turns }, { source: input.source ?? 'hook' });
    recorded += r.ids.length;
    skipped += r.skipped;
  }
  return { recorded, skipped, warnings: parsed.warnings };
}
