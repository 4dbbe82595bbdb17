/** `remember`: a durable memory, refused when it holds a credential; a key supersedes its earlier value. */
import type { z } from 'zod';
import { formatId } from '../core/ids.js';
import { parseInput, rememberInput, type RememberInput } from '../core/schemas.js';
import type { AppContext } from './app-context.js';
import { embedItems } from './embed-items.js';
import { refuseSecretsIn } from './guard-secrets.js';
import { episodeIndexText, knowledgeIndexText } from './index-text.js';

/** What `remember` did. */
export type RememberResult =
  | { kind: 'created'; id: string; episode_id: string }
  | { kind: 'superseded'; id: string; episode_id: string; supersedes: string }
  | { kind: 'reinforced'; id: string; occurrences: number };

/**
 * Everything `remember` refuses before it writes: the schema (`invalid_input`) and credentials (`secret_refused`).
 * A batch (HTTP `/v1/import`) checks every item with it first, so a refused item stores none of the others.
 */
export function parseRememberInput(raw: unknown): z.output<typeof rememberInput> {
  const input = parseInput(rememberInput, raw);
  // Every stored field: a tag or a subject is searchable too.
  refuseSecretsIn({ text: input.text, key: input.key, subject: input.subject, tags: input.tags });
  return input;
}

/** Stores `input.text` as knowledge (with its source episode), superseding the live entry with the same key. */
export async function remember(ctx: AppContext, raw: RememberInput): Promise<RememberResult> {
  const input = parseRememberInput(raw);
  const now = ctx.clock.now();
  const text = input.text.trim();
  const result = await ctx.store.transaction(async (tx): Promise<RememberResult & { rowId?: number }> => {
    await tx.spaces.ensure(ctx.space, now);
    const old = input.key ? await tx.knowledge.getLiveByKey(ctx.space, input.key) : undefined;
    if (old && old.content === text) {
      // The same value again is an occurrence, not a new version.
      await tx.knowledge.update(ctx.space, old.id, { occurrences: old.occurrences + 1 }, undefined, now);
      await tx.knowledge.reinforce(ctx.space, [old.id], ctx.config.recall.reinforceStep, now);
      return { kind: 'reinforced', id: formatId('knowledge', old.id), occurrences: old.occurrences + 1 };
    }
    const { ids } = await tx.episodes.insertMany(ctx.space, [
      {
        kind: 'memory', role: null, speaker: null, content: text, session: null, tool: null, ok: null,
        source: 'remember', ref: null, meta: input.key ? { key: input.key } : {}, durable: input.durable,
        occurredAt: now, createdAt: now, consolidatedAt: now, embedPending: false,
        index: episodeIndexText(text, null),
      },
    ]);
    const episodeId = ids[0]!;
    // The live-key index allows one live entry per key: retire the old one before the new one exists.
    if (old) await tx.knowledge.setStatus(ctx.space, [old.id], 'superseded', now);
    const tags = [...new Set(input.tags)];
    const id = await tx.knowledge.insert(ctx.space, {
      kind: input.kind, key: input.key ?? null, subject: input.subject ?? null, content: text, status: 'provisional',
      occurrences: 1, strength: 0.5 + input.importance / 10, importance: input.importance, durable: input.durable,
      tags, evidence: { episodes: [episodeId], narratives: [] }, source: 'remember', validFrom: now, validTo: null,
      createdAt: now, meta: {}, embedPending: true,
      index: knowledgeIndexText({ content: text, key: input.key ?? null, subject: input.subject ?? null, tags }),
    });
    if (old) {
      await tx.knowledge.supersede(ctx.space, old.id, id, now);
      return { kind: 'superseded', id: formatId('knowledge', id), episode_id: formatId('episode', episodeId), supersedes: formatId('knowledge', old.id), rowId: id };
    }
    return { kind: 'created', id: formatId('knowledge', id), episode_id: formatId('episode', episodeId), rowId: id };
  });
  const { rowId, ...out } = result;
  if (rowId !== undefined) await embedItems(ctx, 'knowledge', [{ id: rowId, text }]);
  return out;
}
