/**
 * How items leave Tidepool as JSON, on every surface (CLI `--json`, MCP structured content, REST): ids as the
 * prefixed strings `e12`/`n3`/`k7` and field names in snake_case (docs/http.md "Ids and field names").
 */
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
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** A morning briefing on the wire. */
export function briefingJson(b: { day: string; headline: string; body: string; createdAt: number }): Record<string, unknown> {
  return { day: b.day, headline: b.headline, body: b.body, created_at: b.createdAt };
}
