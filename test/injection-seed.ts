/** Shared by the injection tests: writes memories with exact weights and times, and the derived rows the script layer would. */
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { narrativeIndexText } from '../src/app/index-text.js';
import { DAY_MS } from '../src/core/clock.js';
import type { SqlDriver } from '../src/store/sql-driver.js';

/** The SQL driver under a SQLite memory (for rows only later issues' engines write: briefings, clusters). */
export function driverOf(memory: Tidepool): SqlDriver {
  return (appContextOf(memory).store as unknown as { db: SqlDriver }).db;
}

/** Inserts a narrative with an exact weight and age (write-time scoring would rescale weights). */
export async function seedNarrative(
  memory: Tidepool,
  n: { gesture: string; weight: number; daysAgo: number; tags?: string[]; direction?: string; context?: string },
): Promise<number> {
  const store = appContextOf(memory).store;
  const at = appContextOf(memory).clock.now() - n.daysAgo * DAY_MS;
  const tags = n.tags ?? [];
  const content = [n.gesture, n.context, n.direction].filter(Boolean).join(' | ');
  await store.spaces.ensure(memory.space, at);
  return store.forSpace(memory.space).narratives.insert({
    kind: 'narrative', ntype: 'general', content, gesture: n.gesture, context: n.context ?? null, moment: null,
    cognitionDirection: n.direction ?? null, tags, entitiesRole: null, relatedEntities: [], sourceLinks: [],
    importance: 3, emotional: 3, recurrence: 3, unresolved: 3, weight: n.weight, createdAt: at, embedPending: false,
    index: narrativeIndexText({ content, gesture: n.gesture, context: n.context ?? null, moment: null, cognitionDirection: n.direction ?? null, tags }),
  });
}

/** Inserts a topic cluster as the script layer stores it. */
export async function seedTopicCluster(memory: Tidepool, name: string, size: number): Promise<void> {
  await driverOf(memory).run(
    'INSERT INTO topic_clusters (space, name, keywords, size, narrative_ids, last_active, avg_weight) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [memory.space, name, JSON.stringify([name]), size, '[]', appContextOf(memory).clock.now(), 0.5],
  );
}

/** Inserts a briefing as the sleep stores it. */
export async function seedBriefing(memory: Tidepool, day: string, headline: string): Promise<void> {
  await driverOf(memory).run('INSERT INTO briefings (space, day, headline, body, created_at) VALUES (?, ?, ?, ?, ?)', [
    memory.space, day, headline, `# Briefing ${day}\n\n${headline}\n`, appContextOf(memory).clock.now(),
  ]);
}
