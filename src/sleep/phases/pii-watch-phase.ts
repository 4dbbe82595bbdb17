/** PII night watch (SEEDS §3.5): stored placeholders mapped back, and names the model finds flagged for review (≤ 10 a night). */

import { formatId } from '../../core/ids.js';
import { NightContext } from '../night-context.js';
import type { NightDelta } from '../night-log.js';
import {
  acceptPiiLeaks,
  buildPiiWatchPrompt,
  MAX_PII_NAMES_PER_NIGHT,
  piiWatchResponseSchema,
} from '../prompts/pii-watch-prompt.js';
import type { Store } from '../../store/port.js';
import { piiFlagsOf, queuePiiFlags } from '../pii-flags.js';
import { replaceName } from '../replace-names.js';
import type { Phase } from './phase.js';

/** Texts shown to the watch; the prompt cuts each to 600 characters. */
const TEXTS_SHOWN = 60;

/** Matches any placeholder of the space's map (`[person_3]`, `[email_2]` …). */
const PLACEHOLDER = /\[(?:email|phone|iban|card|address|person)_\d+\]/;

/**
 * Whether a text could still hold what the watch looks for: a capitalised word that does not open a sentence (a
 * name; placeholders such as [person_1] are lower-case), an `@`, a run of 5+ digits (a phone number, a postcode), or
 * any Han, Hiragana, Katakana or Hangul text (no capitals there to tell a name). Deterministic and generous: only
 * texts with none of these are spared the model.
 */
export function mayHoldPersonalData(text: string): boolean {
  if (/@|\d[\d\s()+-]{3,}\d|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text)) return true;
  for (const sentence of text.split(/[.!?:;\n]+/u)) {
    const words = sentence.trim().split(/\s+/u).slice(1);
    if (words.some((w) => /^["'(]?\p{Lu}/u.test(w) && !/^I(?:'|$)/u.test(w))) return true;
  }
  return false;
}

/**
 * Deterministic part (every night, with or without a model): placeholders stored by older nights (the watch used to
 * write them into the memory) are mapped back to their values wherever the space's map knows them, in episodes,
 * narratives, knowledge, open threads, profiles and the self-concept, so nothing shows a placeholder; what tonight
 * wrote is scanned for e-mail, phone, IBAN, card and address in clear and flagged for review.
 *
 * With a model, the watch reads what tonight wrote (new, updated and reinforced knowledge, tonight's narratives),
 * already redacted: a model copies the names it sees, so a name that leaked past the detector shows up here. A
 * confirmed name (it must occur in a text it is reported for) joins the space's watch list, so it is replaced before
 * every later model call, and the texts it was found in are flagged for review; the stored rows keep the real name.
 */
export const piiWatchPhase: Phase = async (night) => {
  const { store, space, asOf } = night;
  const log = night.progress();
  const ids = [
    ...log.created,
    ...log.reinforced,
    ...log.superseded.map((s) => s.by),
    ...log.quarantined.map((q) => q.entry),
  ].map((i) => i.id);
  const knowledge = await store.forSpace(space).knowledge.getMany(
    [...new Set(ids)].sort((a, b) => a - b),
  );
  const narratives = (await store.forSpace(space).narratives.list({ since: asOf, limit: TEXTS_SHOWN })).sort(
    (a, b) => a.id - b.id,
  );
  const written = [
    ...knowledge.map((k) => ({ ref: formatId('knowledge', k.id), text: k.content })),
    ...narratives.map((n) => ({ ref: formatId('narrative', n.id), text: n.content })),
  ];
  const restoreStored = (tx: Store) => mapPlaceholdersBack(night, tx);
  const flags = piiFlagsOf(written);
  const shown = written.map((w) => ({ id: w.ref, text: night.redactor.redact(w.text) })).slice(0, TEXTS_SHOWN);
  // Only texts that could still hold a name or contact data go to the model.
  const texts = shown.filter((t) => mayHoldPersonalData(t.text));
  const steps: NightDelta['steps'] =
    night.model === undefined
      ? []
      : [
          texts.length > 0
            ? { step: 'pii_watch', ran: true, reason: `${texts.length} of ${shown.length} new texts could hold a name or contact data` }
            : {
                step: 'pii_watch',
                ran: false,
                reason: shown.length === 0 ? 'no new texts' : `none of ${shown.length} new texts could hold a name or contact data`,
              },
        ];
  // Every flag of the night (the consumed episodes' and what tonight wrote) waits in Needs review, not only the briefing.
  const queue = (tx: Store, named: NightDelta['piiFlags'] = []) =>
    queuePiiFlags(tx, space, [...log.piiFlags, ...flags, ...named], asOf);
  const deterministic = {
    delta: { piiFlags: flags, steps },
    apply: async (tx: Store) => (await restoreStored(tx), await queue(tx), { delta: {} }),
  };
  if (night.model === undefined || texts.length === 0) return deterministic;
  const r = await night.ask(
    buildPiiWatchPrompt({ texts }, { language: night.config.language }),
    piiWatchResponseSchema,
  );
  if (r.kind !== 'ok') return { ...deterministic, delta: { ...NightContext.missed('pii_watch', r), piiFlags: flags, steps } };
  const { leaks, dropped, overLimit } = acceptPiiLeaks(
    r.value,
    { texts },
    { ignore: [night.config.agentName, 'self'], limit: MAX_PII_NAMES_PER_NIGHT },
  );
  if (leaks.length === 0) return { ...deterministic, delta: { droppedItems: r.dropped + dropped, piiFlags: flags, steps } };
  const named = [...new Set(leaks.flatMap((l) => l.ids))].map((ref) => ({ ref, kinds: ['name'] }));
  return {
    // The names themselves never enter the log or a report (DESIGN §10): only how many, and where.
    proposals: { names: leaks.length, overLimit },
    delta: { droppedItems: r.dropped + dropped, piiFlags: [...flags, ...named], steps },
    apply: async (tx) => {
      night.redactor.watch(leaks.map((l) => l.name));
      await restoreStored(tx);
      await queue(tx, named);
      return { delta: { pii: { names: leaks.length, overLimit } } };
    },
  };
};

/** Every stored placeholder the space's map knows, replaced by its value (re-indexed); returns how many. */
async function mapPlaceholdersBack(night: NightContext, tx: Store): Promise<number> {
  const { space, asOf } = night;
  let n = 0;
  for (const e of night.redactor.entries()) n += await replaceName(night, tx, e.placeholder, e.value);
  const restore = (t: string) => night.redactor.restore(t);
  for (const p of await tx.forSpace(space).identity.profiles()) {
    if (!PLACEHOLDER.test(p.entity) && !PLACEHOLDER.test(p.content)) continue;
    const entity = restore(p.entity);
    const content = restore(p.content);
    if (entity === p.entity && content === p.content) continue;
    await tx.forSpace(space).identity.upsertProfile({ entity, ptype: p.ptype, content, pinned: p.pinned, at: asOf });
    n++;
  }
  for (const s of await tx.forSpace(space).identity.selfConcept()) {
    const content = restore(s.content);
    if (content === s.content) continue;
    await tx.forSpace(space).identity.upsertSelfConcept(s.field, content, asOf);
    n++;
  }
  return n;
}
