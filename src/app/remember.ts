/** `remember`: a durable memory, refused when it holds a credential; a key supersedes its earlier value. */
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { formatId, parseId } from '../core/ids.js';
import { parseInput, rememberInput, type RememberInput } from '../core/schemas.js';
import type { Knowledge } from '../core/types.js';
import type { ScopedStore } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
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
  refuseSecretsIn({ text: input.text, key: input.key, subject: input.subject, tags: input.tags, meta: input.meta });
  return input;
}

/**
 * Stores `input.text` as knowledge (with its source episode), superseding the live entry with the same key — or,
 * for an edit (`opts.replaces`, a live entry's row id), that entry, whose key the new text takes over.
 */
export async function remember(ctx: AppContext, raw: RememberInput, opts: { replaces?: number } = {}): Promise<RememberResult> {
  const input = parseRememberInput(raw);
  const now = ctx.clock.now();
  const text = input.text.trim();
  const result = await spaceTransaction(ctx, async (scope, tx): Promise<RememberResult & { rowId?: number }> => {
    await tx.spaces.ensure(ctx.space, now);
    const old =
      opts.replaces !== undefined
        ? await liveEntryOrThrow(scope, opts.replaces)
        : input.key
          ? await scope.knowledge.getLiveByKey(input.key)
          : undefined;
    // Without `meta` the text alone decides; with it, changed data under the same text is a new version too.
    const sameMeta = input.meta === undefined || (old !== undefined && JSON.stringify(old.meta) === JSON.stringify(input.meta));
    if (old && old.content === text && sameMeta) {
      // The same value again is an occurrence, not a new version.
      await scope.knowledge.update(old.id, { occurrences: old.occurrences + 1 }, undefined, now);
      await scope.knowledge.reinforce([{ ids: [old.id], step: ctx.config.recall.reinforceStep, at: now }]);
      return { kind: 'reinforced', id: formatId('knowledge', old.id), occurrences: old.occurrences + 1 };
    }
    const { ids } = await scope.episodes.insertMany([
      {
        kind: 'memory', role: null, speaker: null, content: text, session: null, tool: null, ok: null,
        source: 'remember', ref: null, meta: input.key ? { key: input.key } : {}, durable: input.durable,
        occurredAt: now, createdAt: now, consolidatedAt: now, embedPending: false,
        index: episodeIndexText(text, null),
      },
    ]);
    const episodeId = ids[0]!;
    // The live-key index allows one live entry per key: retire the old one before the new one exists.
    if (old) await scope.knowledge.setStatus([old.id], 'superseded', now);
    const tags = [...new Set(input.tags)];
    const id = await scope.knowledge.insert({
      kind: input.kind, key: input.key ?? null, subject: input.subject ?? null, content: text, status: 'provisional',
      occurrences: 1, strength: 0.5 + input.importance / 10, importance: input.importance, durable: input.durable,
      tags, evidence: { episodes: [episodeId], narratives: [] }, source: 'remember', validFrom: now, validTo: null,
      createdAt: now, meta: input.meta ?? {}, embedPending: true,
      index: knowledgeIndexText({ content: text, key: input.key ?? null, subject: input.subject ?? null, tags }),
    });
    if (old) {
      await scope.knowledge.supersede(old.id, id, now);
      return { kind: 'superseded', id: formatId('knowledge', id), episode_id: formatId('episode', episodeId), supersedes: formatId('knowledge', old.id), rowId: id };
    }
    return { kind: 'created', id: formatId('knowledge', id), episode_id: formatId('episode', episodeId), rowId: id };
  });
  const { rowId, ...out } = result;
  if (rowId !== undefined) await embedItems(ctx, 'knowledge', [{ id: rowId, text }]);
  return out;
}

/** The live (provisional or reliable) entry an edit replaces; anything else is not there to edit. */
async function liveEntryOrThrow(scope: ScopedStore, id: number): Promise<Knowledge> {
  const k = await scope.knowledge.get(id);
  if (!k) throw new TidepoolError('not_found', `no knowledge entry ${formatId('knowledge', id)} in space "${scope.space}"`, { field: 'id' });
  if (k.status !== 'provisional' && k.status !== 'reliable')
    throw new TidepoolError('conflict', `${formatId('knowledge', id)} is ${k.status}; only a live entry can be edited`, { field: 'id' });
  return k;
}

/** `edit`: a person's correction of a live knowledge entry — the new text supersedes it (kept as history). */
export const editInput = z.object({ id: z.string().trim().min(1), text: rememberInput.shape.text }).strict();

/**
 * Edits a knowledge entry by remembering the corrected text in its place: same kind, subject, key, tags, importance
 * and durability; the old version is superseded, never overwritten, so `forget` still reaches every copy.
 */
export async function editKnowledge(ctx: AppContext, raw: unknown): Promise<RememberResult> {
  const input = parseInput(editInput, raw);
  const { layer, id } = parseId(input.id);
  if (layer !== 'knowledge')
    throw new TidepoolError('invalid_input', `id: only knowledge entries are edited (k12), got "${input.id}"; episodes are history`, { field: 'id' });
  const old = await ctx.scope.knowledge.get(id);
  if (!old) throw new TidepoolError('not_found', `no knowledge entry ${input.id} in space "${ctx.space}"`, { field: 'id' });
  return remember(
    ctx,
    {
      text: input.text,
      kind: old.kind,
      ...(old.key ? { key: old.key } : {}),
      ...(old.subject ? { subject: old.subject } : {}),
      tags: old.tags,
      importance: old.importance,
      durable: old.durable,
    },
    { replaces: old.id },
  );
}
