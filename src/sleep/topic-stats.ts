/** The topics gaps are chosen from, with how often each is mentioned and how much the memory links to it (SEEDS §3.5). */

import type { TopicStat } from '../script/gap-detection.js';
import type { Store } from '../store/port.js';

/** Topic clusters read as candidates: the T3 map's 25 and some more (DESIGN §4). */
const CLUSTERS = 50;
/** Keywords of a cluster looked up in the knowledge: its name's words first, then its top keywords. */
const KEYWORDS = 3;
/** Knowledge links counted per topic at most: "barely linked" is decided far below it. */
const MAX_DEGREE = 10;
/** A placeholder of the PII map is never a topic (issue 21: gaps used to list `[person_3]`). */
const PLACEHOLDER = /^\[(?:email|phone|iban|card|address|person)_\d+\]$/u;

/**
 * Every topic the memory has, in one list: knowledge subjects and graph entities (their links: knowledge links and
 * co-occurrence partners, from `topicStats`), and the script layer's topic clusters — what the conversations keep
 * talking about (mentions: the cluster's narratives), linked by the live knowledge entries that name one of its
 * keywords. A cluster talked about on many days that no knowledge entry covers is a real gap: nobody has yet
 * written down what was learned about it.
 */
export async function topicStatsOf(store: Store, space: string): Promise<TopicStat[]> {
  const stats = await store.forSpace(space).derived.topicStats();
  const known = new Set(stats.map((s) => s.topic.toLowerCase()));
  const clusters = await store.forSpace(space).derived.topicClusters({ minSize: 1, limit: CLUSTERS });
  const out = [...stats];
  for (const c of clusters) {
    if (known.has(c.name.toLowerCase())) continue;
    known.add(c.name.toLowerCase());
    const terms = [...new Set([...c.name.toLowerCase().split(/\s+/u), ...c.keywords])].slice(0, KEYWORDS);
    const linked = new Set<number>();
    for (const term of terms) {
      const hits = await store.forSpace(space).search.lexical('knowledge', [term], {
        limit: MAX_DEGREE,
        statuses: ['provisional', 'reliable'],
      });
      for (const h of hits) linked.add(h.id);
    }
    out.push({ topic: c.name, mentions: c.size, degree: Math.min(linked.size, MAX_DEGREE) });
  }
  return out.filter((s) => !PLACEHOLDER.test(s.topic));
}
