/** New store rows for the store's own tests: an episode turn and a narrative with plain defaults, overridable per field. */
import type { NewEpisode, NewNarrative } from '../../src/store/port.js';

/** A user turn in session `s1` at `at`, indexed by its own text. */
export function newEpisodeRow(content: string, at: number, o: Partial<NewEpisode> = {}): NewEpisode {
  return {
    kind: 'turn',
    role: 'user',
    speaker: null,
    content,
    session: 's1',
    tool: null,
    ok: null,
    source: 'test',
    ref: null,
    meta: {},
    durable: false,
    occurredAt: at,
    createdAt: at,
    embedPending: false,
    index: { body: content, extra: '', raw: content },
    ...o,
  };
}

/** A general narrative whose gesture and content are `gesture`, scored 3 on every axis, at `at`. */
export function newNarrativeRow(gesture: string, at: number, o: Partial<NewNarrative> = {}): NewNarrative {
  return {
    kind: 'narrative',
    ntype: 'general',
    content: gesture,
    gesture,
    context: null,
    moment: null,
    cognitionDirection: null,
    tags: [],
    entitiesRole: null,
    relatedEntities: [],
    sourceLinks: [],
    importance: 3,
    emotional: 3,
    recurrence: 3,
    unresolved: 3,
    weight: 0.5,
    createdAt: at,
    embedPending: false,
    index: { body: gesture, extra: '', raw: gesture },
    ...o,
  };
}
