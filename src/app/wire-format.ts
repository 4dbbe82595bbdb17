/**
 * How items leave Tidepool as JSON, on every surface (CLI `--json`, MCP structured content, REST): ids as the
 * prefixed strings `e12`/`n3`/`k7` and field names in snake_case (docs/http.md "Ids and field names").
 */
import { defined } from '../core/defined.js';
import { formatId } from '../core/ids.js';
import type { Episode, RecallHit } from '../core/types.js';

/** An episode (a raw turn, tool call or note) as JSON. */
export interface EpisodeJson {
  id: string;
  kind: Episode['kind'];
  role: string | null;
  speaker: string | null;
  text: string;
  session: string | null;
  tool: string | null;
  ok: boolean | null;
  occurred_at: number;
  archived: boolean;
}

/** An episode on the wire. */
export function episodeJson(e: Episode): EpisodeJson {
  return {
    id: formatId('episode', e.id), kind: e.kind, role: e.role, speaker: e.speaker, text: e.content, session: e.session, tool: e.tool,
    ok: e.ok, occurred_at: e.occurredAt, archived: e.archivedAt !== null,
  };
}

/** A recall hit on the wire: absent facts are left out rather than sent as null. */
export function hitJson(h: RecallHit): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: h.id, layer: h.layer, text: h.text, score: h.score, created_at: h.createdAt, exact: h.exact, kind: h.kind,
    status: h.status, session: h.session ?? undefined, speaker: h.speaker ?? undefined, weight: h.weight, tags: h.tags,
    why: h.why, repeats: h.repeats?.map((r) => r.id),
    context: h.context?.map((c) => ({ id: c.id, text: c.text, created_at: c.createdAt, session: c.session, speaker: c.speaker, why: { neighbour_of: c.neighbourOf } })),
  };
  return defined(out);
}

/** A morning briefing on the wire. */
export function briefingJson(b: { day: string; headline: string; body: string; createdAt: number }): Record<string, unknown> {
  return { day: b.day, headline: b.headline, body: b.body, created_at: b.createdAt };
}

/**
 * Keys whose values are names or data of their own, kept as they are: user JSON (`meta`, `metadata`, `payload`),
 * config objects (their keys are the config file's names, which `--set`/PUT take back) and feature/version maps.
 */
const OPAQUE_KEYS: ReadonlySet<string> = new Set(['meta', 'metadata', 'payload', 'config', 'features', 'versions']);

/**
 * A use case's result with every field name in snake_case (`createdAt` → `created_at`), deeply: the one place the
 * surfaces' JSON gets its field convention, so a result type written in TypeScript's camelCase cannot leak out.
 */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // Only identifier-shaped keys (`createdAt`): a key that is data (a name, a tag) is not an identifier of ours.
    const name = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(k) ? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : k;
    out[name] = OPAQUE_KEYS.has(k) ? v : snakeKeys(v);
  }
  return out;
}
