/**
 * Test helper: fills one space with every kind of row a lived-in memory holds — live and archived episodes,
 * narratives, knowledge with supersede history and links, profiles with history, self-concept, snapshots, threads,
 * a goal and checkpoint, a pending event, vectors, attention, script-layer clusters and graph, two nights' runs and
 * a briefing, a journal workspace with an archived day, and an API token.
 */
import { addPendingEvent, checkpoint, setGoal } from '../../src/app/continuity.js';
import { sleep } from '../../src/app/sleep.js';
import { createToken } from '../../src/app/tokens.js';
import { appContextOf, type Tidepool } from '../../src/app/tidepool.js';
import type { FixedClock } from '../../src/core/clock.js';
import { recordDay, ResponderModel } from '../sleep-fixtures.js';

const DAY = 86_400_000;

/** Counts of what `seedFullSpace` wrote, read back from the store (tests assert every layer is populated). */
export type FullSpaceCounts = Record<string, number>;

/**
 * Seeds `memory`'s space from `clock`'s current time; the clock ends 16 days later. `journalRoot` is an existing,
 * empty directory that becomes the space's journal workspace (its path is stored).
 */
export async function seedFullSpace(memory: Tidepool, clock: FixedClock, journalRoot: string): Promise<FullSpaceCounts> {
  const t0 = clock.now();
  await recordDay(memory, t0, 40);
  await memory.remember({ text: 'The staging database listens on port 5432', key: 'staging.port', subject: 'staging', tags: ['数据库'] });
  clock.set(t0 + 60_000);
  await memory.remember({ text: 'The staging database listens on port 6543', key: 'staging.port', subject: 'staging' });
  await memory.remember({ text: '用户爱喝咖啡', tags: ['偏好'] });
  await memory.write({ gesture: '我修好了同步', tags: ['同步'], entities_role: 'A=判断; B=审查', source_links: ['4'] });
  await memory.writeProfile({ entity: 'Ana', content: 'Ana runs the release train' });
  await memory.writeProfile({ entity: 'Ana', content: 'Ana runs the release train and the CI' });
  await memory.writeSelfConcept({ field: 'fact', content: 'I am the release agent' });
  await memory.writeSelfConcept({ field: 'fact', content: 'I am the release agent of this team' });
  for (const [i, topic] of ['kestrel rollout', 'kestrel rollback', 'heron budget', 'heron hiring'].entries()) {
    await memory.write({ gesture: `I reviewed the ${topic} with Ana`, tags: [topic.split(' ')[0]!, 'review'], importance: 2 + (i % 3) });
  }
  await memory.writeSnapshot({ content: 'calm, focused on the release' });
  await memory.writeThread({ content: 'why does the sync race come back?' });
  await setGoal(appContextOf(memory), { goal: 'ship release 1.2', session: 's0' });
  await checkpoint(appContextOf(memory), { plan: 'ship 1.2 after the review of the heron plan', session: 's0' });
  await addPendingEvent(appContextOf(memory), 'note', { text: 'the build went green while you were away' }, 's0');

  // The journal keeps one cold day; tend moves the older one into the database archive.
  const journal = memory.journal();
  await journal.config({ root: journalRoot, patch: { coldMaxFiles: 1 } });
  await journal.add({ root: journalRoot, date: '2026-09-01', time: '08:00', heading: 'kestrel kickoff', content: 'Met the kestrel team.' });
  await journal.add({ root: journalRoot, date: '2026-09-02', time: '08:00', heading: 'heron review', content: 'Reviewed the heron plan.' });
  await journal.tend({ root: journalRoot });

  // A night with a model writes narratives, knowledge and its links, threads, self-image and the briefing.
  clock.set(t0 + DAY);
  const night = await sleep(appContextOf(memory), { modelInstance: new ResponderModel() });
  if (night.kind !== 'slept') throw new Error(`seed night: ${night.kind}`);
  // Fifteen days after consolidation a deterministic night moves the day's episodes to the archive.
  clock.set(t0 + 16 * DAY);
  const later = await sleep(appContextOf(memory), { model: 'none', force: true });
  if (later.kind !== 'slept' || later.log.counts.archived === 0) throw new Error('seed night 2 archived nothing');

  // Vectors as an embedder would leave them (8 dimensions: binary copies need a multiple of 8); the narratives'
  // let the script layer build soft clusters.
  const [k] = await appContextOf(memory).store.forSpace(memory.space).knowledge.list({ limit: 1 });
  if (k) await appContextOf(memory).store.forSpace(memory.space).vectors.put('knowledge', k.id, 'test-model', Float32Array.from([0.5, -1, 2, 0.25, 0, 1, -0.5, 3]), clock.now());
  for (const n of await appContextOf(memory).store.forSpace(memory.space).narratives.texts()) {
    const v = Float32Array.from({ length: 8 }, (_, d) => Math.sin(n.id * (d + 1)) + (n.id % 2 === 0 ? 1 : -1));
    await appContextOf(memory).store.forSpace(memory.space).vectors.put('narrative', n.id, 'test-model', v, clock.now());
  }
  await memory.recall({ query: 'staging database port' });
  await memory.recall({ query: '咖啡' });
  await memory.scriptAll();
  // The nightly scheduler's record that today's night is done (job_state).
  const job = { space: memory.space, job: 'sleep', day: new Date(clock.now()).toISOString().slice(0, 10), owner: 'seed' };
  if (!(await appContextOf(memory).store.jobs.claim({ ...job, ttlMs: 60_000, at: clock.now() }))) throw new Error('seed: job claim refused');
  await appContextOf(memory).store.jobs.finish({ ...job, at: clock.now() });
  await createToken(appContextOf(memory), { space: memory.space, scope: 'read', label: 'seeded' });

  const counts: FullSpaceCounts = {};
  for await (const line of memory.export()) {
    const t = (JSON.parse(line) as { table?: string }).table;
    if (t) counts[t] = (counts[t] ?? 0) + 1;
  }
  return counts;
}
