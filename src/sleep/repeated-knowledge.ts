/** Repeated statements become provisional knowledge without a model (issue 21): found in the history, written once. */

import type { Episode, Knowledge } from '../core/types.js';
import {
  findRepeatedStatements,
  statementsOf,
  type RepeatedStatement,
  type SaidSentence,
} from '../script/repeated-statements.js';
import { createKeywordExtractor } from '../script/keywords.js';
import { loadStopwords } from '../script/stopwords.js';
import type { Store } from '../store/port.js';
import {
  addOccurrence,
  contradictionOf,
  insertEntry,
  nearestKnowledge,
  sameStatement,
  topTerms,
} from './knowledge-writes.js';
import type { NightContext } from './night-context.js';
import { briefItem, type NightDelta } from './night-log.js';
import type { EmbedItem } from './phases/phase.js';

/**
 * Sentences of tonight looked up in the history at most, newest first: one lexical search each, so a 45,000-turn
 * import costs a bounded night (the rest is still compared among tonight's own sentences).
 */
const MAX_LOOKUPS = 300;
/** Earlier turns read per lookup: a statement said on a handful of days is found among its nearest episodes. */
const PER_LOOKUP = 8;
/** Why a repeated statement waits in Needs review instead of becoming knowledge. */
const CONTRADICTS = 'contradicts reliable knowledge';

let extractor: ((text: string) => string[]) | undefined;
/** The script layer's keywords (stop words out, jieba for Chinese): what makes a sentence say something. */
function keywordsOf(text: string): string[] {
  extractor ??= createKeywordExtractor({ stopwords: loadStopwords() });
  return extractor(text);
}

/** Episode kinds that carry what someone said (not tool traffic, not `remember`'s own copy, not the journal). */
const SPOKEN = new Set(['turn', 'import', 'note']);

/** The statements of `episodes` said again on another day, with their occurrences in the history (read-only). */
export async function findRepeats(night: NightContext, episodes: readonly Episode[]): Promise<RepeatedStatement[]> {
  const tonight: SaidSentence[] = episodes
    .filter((e) => SPOKEN.has(e.kind) && e.role !== 'tool')
    .flatMap((e) => statementsOf(e.content, keywordsOf).map((text) => ({ episodeId: e.id, at: e.occurredAt, text })));
  if (tonight.length === 0) return [];
  const ids = new Set<number>();
  const lookups = [...tonight].sort((a, b) => b.at - a.at).slice(0, MAX_LOOKUPS);
  for (const s of lookups) {
    const terms = topTerms(night, [s.text]);
    if (terms.length === 0) continue;
    const hits = await night.scope.search.lexical('episode', terms, {
      limit: PER_LOOKUP,
      includeArchived: true,
    });
    for (const h of hits) ids.add(h.id);
  }
  const tonightIds = new Set(episodes.map((e) => e.id));
  const earlier = (await night.scope.episodes.getMany([...ids].filter((id) => !tonightIds.has(id))))
    .filter((e) => SPOKEN.has(e.kind) && e.role !== 'tool')
    .flatMap((e) => statementsOf(e.content, keywordsOf).map((text) => ({ episodeId: e.id, at: e.occurredAt, text })));
  return findRepeatedStatements(tonight, earlier);
}

/**
 * Writes `repeats` in the night's transaction. A statement the memory already holds gains the days it was not yet
 * counted for (evidence joined, strength reinforced); a new one becomes a provisional fact with one occurrence per
 * day, linked to every episode that said it — unless it contradicts reliable knowledge (a negation or a changed
 * value): then it is quarantined for review, the one path every contradiction takes.
 */
export async function applyRepeats(
  night: NightContext,
  tx: Store,
  repeats: readonly RepeatedStatement[],
): Promise<{ delta: NightDelta; embed: EmbedItem[] }> {
  const d: Required<Pick<NightDelta, 'created' | 'reinforced' | 'quarantined'>> = { created: [], reinforced: [], quarantined: [] };
  const embed: EmbedItem[] = [];
  for (const r of repeats) {
    const evidence = { episodes: r.episodeIds, narratives: [] };
    const near = await nearestKnowledge(night, tx, [r.content], 5, ['provisional', 'reliable', 'quarantined']);
    const same = sameStatement(r.content, 'fact', near);
    // Already waiting in Needs review: the person's verdict decides, not another copy.
    if (same?.status === 'quarantined') continue;
    if (same !== undefined) {
      const newDays = r.days - same.occurrences;
      const newEpisodes = r.episodeIds.some((id) => !same.evidence.episodes.includes(id));
      if (newDays > 0 && newEpisodes) {
        await addOccurrence(night, tx, same, evidence, newDays);
        d.reinforced.push(briefItem(same));
      }
      continue;
    }
    const { verdict, reliable } = await contradictionOf(night, tx, { content: r.content, key: null }, near);
    const against: Knowledge | undefined =
      verdict.kind === 'contradicts' ? reliable.find((k) => k.id === verdict.with) : undefined;
    const reason = verdict.kind === 'contradicts' ? `${CONTRADICTS} (${verdict.match})` : '';
    const k = await insertEntry(night, tx, {
      kind: 'fact',
      content: r.content,
      key: null,
      status: against ? 'quarantined' : 'provisional',
      occurrences: r.days,
      evidence,
      tags: ['repeated'],
      meta: against
        ? { repeated: { days: r.days }, quarantine: { conflictsWith: against.id, key: null, reason } }
        : { repeated: { days: r.days } },
    });
    embed.push({ layer: 'knowledge', id: k.id, text: k.content });
    if (against) d.quarantined.push({ entry: briefItem(k), conflictsWith: briefItem(against), reason });
    else d.created.push(briefItem(k));
  }
  return { delta: d, embed };
}
