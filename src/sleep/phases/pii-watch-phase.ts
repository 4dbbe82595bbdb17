/** PII night watch (SEEDS §3.5): names that slipped through without a placeholder, ≤ 10 a night, replaced everywhere. */

import { formatId } from '../../core/ids.js';
import { NightContext } from '../night-context.js';
import {
  acceptPiiLeaks,
  buildPiiWatchPrompt,
  MAX_PII_NAMES_PER_NIGHT,
  piiWatchResponseSchema,
} from '../prompts/pii-watch-prompt.js';
import { replaceName } from '../replace-names.js';
import type { Phase } from './phase.js';

/** Texts shown to the watch; the prompt cuts each to 600 characters. */
const TEXTS_SHOWN = 60;

/**
 * Reads what tonight wrote (new, updated and reinforced knowledge, tonight's narratives), already redacted: a model
 * copies the names it sees, so a name that leaked past the detector into the episodes shows up here. A confirmed
 * name (it must occur in a text it is reported for) joins the space's watch list, so it is replaced before every
 * later model call too, and is replaced by its placeholder in episodes, narratives, knowledge and open threads.
 */
export const piiWatchPhase: Phase = async (night) => {
  if (night.model === undefined) return {};
  const { store, space, asOf } = night;
  const log = night.progress();
  const ids = [
    ...log.created,
    ...log.reinforced,
    ...log.superseded.map((s) => s.by),
    ...log.quarantined.map((q) => q.entry),
  ].map((i) => i.id);
  const knowledge = await store.knowledge.getMany(
    space,
    [...new Set(ids)].sort((a, b) => a - b),
  );
  const narratives = (await store.narratives.list(space, { since: asOf, limit: TEXTS_SHOWN })).sort(
    (a, b) => a.id - b.id,
  );
  const texts = [
    ...knowledge.map((k) => ({ id: formatId('knowledge', k.id), text: night.redactor.redact(k.content) })),
    ...narratives.map((n) => ({ id: formatId('narrative', n.id), text: night.redactor.redact(n.content) })),
  ].slice(0, TEXTS_SHOWN);
  if (texts.length === 0) return {};
  const r = await night.ask(
    buildPiiWatchPrompt({ texts }, { language: night.config.language }),
    piiWatchResponseSchema,
  );
  if (r.kind !== 'ok') return { delta: NightContext.missed('pii_watch', r) };
  const { leaks, dropped, overLimit } = acceptPiiLeaks(
    r.value,
    { texts },
    { ignore: [night.config.agentName, 'self'], limit: MAX_PII_NAMES_PER_NIGHT },
  );
  if (leaks.length === 0) return { delta: { droppedItems: r.dropped + dropped } };
  return {
    // The names themselves never enter the log or a report (DESIGN §10): only how many.
    proposals: { names: leaks.length, overLimit },
    delta: { droppedItems: r.dropped + dropped },
    apply: async (tx) => {
      const placeholders = night.redactor.watch(leaks.map((l) => l.name));
      let replacements = 0;
      for (const [name, placeholder] of placeholders)
        replacements += await replaceName(night, tx, name, placeholder);
      return { delta: { pii: { names: leaks.length, replacements, overLimit } } };
    },
  };
};
