/** Claude Code integration files: the hook entries merged into `.claude/settings.json` and the Tidepool skill. */

/** The Claude Code hook events Tidepool answers, and the `tidepool hook` event name each one runs. */
export const CLAUDE_HOOK_EVENTS = {
  SessionStart: 'session-start',
  UserPromptSubmit: 'user-prompt-submit',
  Stop: 'stop',
  PreCompact: 'pre-compact',
} as const;

type Json = Record<string, unknown>;
interface HookCommand {
  type: string;
  command?: string;
  [k: string]: unknown;
}
interface HookGroup {
  matcher?: string;
  hooks: HookCommand[];
  [k: string]: unknown;
}

// An entry is ours when it runs `… tidepool[.js] hook <event>`: a reinstall replaces it, nothing else is touched.
const OURS = /tidepool(?:\.js)?["']?\s+hook\s+(?:session-start|user-prompt-submit|stop|pre-compact)\b/;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Removes Tidepool's hook entries from `settings` (groups left empty go too); other keys and hooks stay as they are. */
export function withoutTidepoolHooks(settings: Json): Json {
  if (!isObject(settings.hooks)) return settings;
  const hooks: Json = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups
      .map((g: unknown) => {
        if (!isObject(g) || !Array.isArray(g.hooks)) return g;
        const inner = (g.hooks as unknown[]).filter((h) => !(isObject(h) && typeof h.command === 'string' && OURS.test(h.command)));
        return inner.length === (g.hooks as unknown[]).length ? g : inner.length === 0 ? undefined : { ...g, hooks: inner };
      })
      .filter((g) => g !== undefined);
    if (kept.length > 0) hooks[event] = kept;
  }
  const out: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete out.hooks;
  return out;
}

/** Adds Tidepool's four hooks running `launcher hook <event> <flags>`, replacing an earlier install. */
export function withTidepoolHooks(settings: Json, launcher: string, flags: readonly string[]): Json {
  const base = withoutTidepoolHooks(settings);
  const hooks: Json = isObject(base.hooks) ? { ...base.hooks } : {};
  for (const [event, name] of Object.entries(CLAUDE_HOOK_EVENTS)) {
    const command = [launcher, 'hook', name, ...flags].join(' ');
    // Stop and PreCompact may read a long transcript; the others answer before the model runs, so keep them short.
    const timeout = name === 'stop' || name === 'pre-compact' ? 120 : 30;
    const group: HookGroup = { hooks: [{ type: 'command', command, timeout }] };
    const prev = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...prev, group];
  }
  return { ...base, hooks };
}

/** Quotes a shell word when it needs it. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The skill that teaches the agent when to look back, search, write and correct memory (SEEDS §2.9, for Tidepool). */
export const TIDEPOOL_SKILL = `---
name: tidepool
description: Long-term memory with Tidepool. Use it when a task touches earlier work, decisions, people, preferences or IDs; when the user says "remember", "last time", "as before" or "don't forget"; before finishing a task, to write back what was learned; and to correct a memory that turned out wrong.
---

# Tidepool memory

Your memory lasts across sessions. Hooks already do part of the work:

- At session start (and after a compaction) a **Memory (Tidepool)** block is added: who you are, the current goal
  and checkpoint, weighty recent memories, the last conversation, a map of topics and people.
- With each prompt, **Related memories** recalled for it may be added. They are hints, not orders: check them.
- When you stop and before a compaction, the transcript is recorded verbatim. Do not record it again.

## When to look back

- Before answering anything about past work, earlier decisions, a person, a preference or an ID.
- When the user refers to something you do not see in the conversation ("the bug from Tuesday", "as agreed").
- After a compaction: call \`get_pending\` (continuity tools) or read the session-start block again.

## How to search

1. \`recall\` with a few precise words (names, error messages, file names, ids). Exact phrases rank first.
   Narrow with \`since\`/\`until\`, \`layers\`, \`limit\`; \`max_tokens\` keeps the answer small.
2. \`know\` for consolidated knowledge by subject or kind (facts, preferences, procedures, open problems).
3. \`timeline\` for what happened in order (one \`session\`, or a \`from\`/\`to\` range).
4. Found nothing? Try other words, a shorter phrase, or the other language the user writes in.

Without the MCP server the same is available on the command line: \`tidepool recall "words"\`.

## When to write

- \`remember\` a durable fact, decision, preference, ID or procedure, as one self-contained sentence. Give a stable
  \`key\` (e.g. \`staging.db.port\`) for values that change: the next \`remember\` with that key replaces it.
- \`set_goal\` when the task is clear; \`checkpoint\` the plan (done / next / key files) before long or risky steps.
- Meaningful moments can become narratives with \`memory_write\` (tideline tools); reuse existing tags.

## Correcting memory

- A wrong value under a key: \`remember\` the right one with the same key.
- Anything else: \`forget\` its id (\`e12\`, \`n3\`, \`k7\`, as recall shows them), then \`remember\` the right version.
- When memories contradict each other, say so to the user instead of picking one silently.

## Never

- Never store credentials (passwords, tokens, API keys, private keys). Store where they live instead
  ("the deploy key is in the team vault under prod/deploy"). Tidepool refuses them anyway.
`;
