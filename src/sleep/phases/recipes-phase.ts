/** Recipes (SEEDS §3.5): 2-4 successful tool calls that finish a task, repeated in ≥ 2 sessions, become keyed procedures. */

import { DAY_MS } from '../../core/clock.js';
import { detectRecipes, recipeContent, type ToolEpisode } from '../../script/recipe-detection.js';
import { addOccurrence, insertEntry } from '../knowledge-writes.js';
import { briefItem, type NightDelta } from '../night-log.js';
import type { EmbedItem, Phase } from './phase.js';

/** Tool results of the last 90 days are read: a recipe is a habit, and a quarter shows one. */
const WINDOW_DAYS = 90;

/**
 * One call per step: a session that recorded its tool calls (an import, a hook) is read from the calls, which carry
 * the input (the call's text after the tool name); a session with only results (`/v1/ingest` tool_result events)
 * from its results. Reading both would count every step twice.
 */
export function toolEpisodes(
  rows: ReadonlyArray<{ session: string; tool: string; ok: boolean; at: number; kind: 'tool_call' | 'tool_result'; input: string | null }>,
): ToolEpisode[] {
  const withCalls = new Set(rows.filter((r) => r.kind === 'tool_call').map((r) => r.session));
  return rows
    .filter((r) => (withCalls.has(r.session) ? r.kind === 'tool_call' : r.kind === 'tool_result'))
    .map(({ session, tool, ok, at, input }) => {
      const text = input?.startsWith(`${tool} `) ? input.slice(tool.length + 1) : input;
      return text ? { session, tool, ok, at, input: text } : { session, tool, ok, at };
    });
}

/**
 * Deterministic, from tool calls (with their inputs) or tool results (each with a session, tool name and success flag).
 * Each recipe is stored under its stable key (`recipe:a>b>c`) as kind `procedure`, tag `recipe`, with occurrences =
 * the sessions it succeeded in; a recipe seen in more sessions than stored is one more occurrence (reinforced).
 */
export const recipesPhase: Phase = async (night) => {
  const { store, space, asOf } = night;
  const recipes = detectRecipes(toolEpisodes(await store.forSpace(space).episodes.toolResults(asOf - WINDOW_DAYS * DAY_MS)));
  return {
    proposals: recipes.map((r) => ({ key: r.key, tools: r.tools, steps: r.steps, sessions: r.sessions.length })),
    apply: async (tx) => {
      const d: Required<Pick<NightDelta, 'created' | 'reinforced' | 'recipes'>> = {
        created: [],
        reinforced: [],
        recipes: [],
      };
      const embed: EmbedItem[] = [];
      for (const r of recipes) {
        const content = recipeContent(r);
        const meta = { recipe: { tools: r.tools, steps: r.steps, sessions: r.sessions.length, count: r.count } };
        const live = await tx.forSpace(space).knowledge.getLiveByKey(r.key);
        if (live === undefined) {
          const k = await insertEntry(night, tx, {
            kind: 'procedure',
            content,
            key: r.key,
            status: 'provisional',
            occurrences: r.sessions.length,
            evidence: { episodes: [], narratives: [] },
            tags: ['recipe'],
            meta,
          });
          d.created.push(briefItem(k));
          embed.push({ layer: 'knowledge', id: k.id, text: content });
        } else if (r.sessions.length > live.occurrences) {
          await addOccurrence(
            night,
            tx,
            live,
            { episodes: [], narratives: [] },
            r.sessions.length - live.occurrences,
          );
          await tx.forSpace(space).knowledge.update(
            live.id,
            { content, meta: { ...live.meta, ...meta } },
            night.indexes.knowledge({ content, key: r.key, subject: live.subject, tags: live.tags }),
            asOf,
          );
          d.reinforced.push(briefItem({ ...live, content }));
        } else continue;
        d.recipes.push({ tools: r.tools, sessions: r.sessions.length });
      }
      return { delta: d, embed };
    },
  };
};
