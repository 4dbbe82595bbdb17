/** Test helper for the SQLite search tests: an episode indexed as written (no segmentation, no substring index). */
import type { NewEpisode } from '../port.js';

export function plainEpisode(content: string, at = 1): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content, session: null, tool: null, ok: null, source: 'test', ref: null, meta: {},
    durable: false, occurredAt: at, createdAt: at, embedPending: false, index: { body: content, extra: '', raw: '' },
  };
}
