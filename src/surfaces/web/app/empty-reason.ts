/** Empty states that tell the real reason: nothing stored yet, no night yet, or nights without a model. */
import { api } from './api.js';
import type { BriefingAnswer, TimelineAnswer } from './api-types.js';

/** What a page shows and what fills it, in the words of the empty state. */
export type EmptyTopic = 'knowledge' | 'topics' | 'graph' | 'briefing' | 'review';

// The briefing's own warning when the night had no model (src/script/briefing-render.ts).
const NO_MODEL = /No model is configured/u;

const WITHOUT_MODEL: Record<EmptyTopic, string> = {
  knowledge:
    'No model configured: the nights wrote extractive narratives and keep as knowledge only statements said again on another day; none so far. `tidepool remember` stores knowledge directly.',
  topics:
    'No model configured: the nights wrote extractive narratives; `tidepool script all` builds topics from them once at least 3 share a keyword.',
  graph:
    'No model configured: the entity graph comes from the names in the extractive narratives; `tidepool script all` builds it, and none named two people together yet.',
  briefing: 'No briefing for this day.',
  review: 'Nothing needs review: contradictions and personal data in clear that the nights find wait here.',
};

/**
 * The reason a page is empty, read from the memory itself: no episodes at all, episodes but no night yet, or a
 * night without a model (its briefing says so); otherwise `fallback`, the page's own explanation.
 */
export async function emptyReason(topic: EmptyTopic, fallback: string): Promise<string> {
  const [history, briefing] = await Promise.all([
    api<TimelineAnswer>('/v1/timeline?limit=1'),
    api<BriefingAnswer>('/v1/briefing'),
  ]);
  if (history.total === 0)
    return 'Nothing imported yet: `tidepool import <file>` (Claude Code, Codex, LoCoMo …) or record turns; then `tidepool sleep --model none` and `tidepool script all` fill this page.';
  if (!briefing.briefing)
    return `${history.total} episodes stored, but no night has run yet: \`tidepool sleep\` (it works with --model none) and then \`tidepool script all\`.`;
  if (NO_MODEL.test(briefing.briefing.body) && topic !== 'review') return WITHOUT_MODEL[topic];
  return fallback;
}
