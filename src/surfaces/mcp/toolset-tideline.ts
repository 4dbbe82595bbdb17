/**
 * The `tideline` toolset: Tideline's 17 tools with its names and parameters (SEEDS §1.4), its advertised defaults
 * honoured (BUG T-4 replaced every limit with 10). One registration per tool, so the file is long but flat.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { heatmapInput, softClustersInput } from '../../app/read-clusters.js';
import { graphInput } from '../../app/read-graph.js';
import { recallNarrativesInput } from '../../app/recall-narratives.js';
import { endTime, jsonObject, label, narrativeInput, profileInput, recallInput, selfConceptInput, snapshotInput, text, threadInput, time } from '../../core/schemas.js';
import { THREAD_STATUSES, type Narrative } from '../../core/types.js';
import { episodeJson, hitJson } from '../../app/wire-format.js';
import { hitLine } from './toolset-core.js';
import { defined } from '../../core/defined.js';
import { addTool, isoMinute, type Toolset, type ToolsetDeps } from './toolset.js';

const limit = (n: number) => recallInput.in.shape.limit.unwrap().default(n).describe(`most results, default ${n}`);

function narrativeText(n: Narrative): string {
  const dims = `imp ${n.importance} emo ${n.emotional} rec ${n.recurrence} unr ${n.unresolved}`;
  const tags = n.tags.length > 0 ? ` [${n.tags.join(', ')}]` : '';
  return `- [n${n.id} ${isoMinute(n.createdAt)} w=${n.weight.toFixed(2)} ${dims}]${tags} ${n.content}`;
}

function narrativeData(n: Narrative): Record<string, unknown> {
  return {
    id: `n${n.id}`, kind: n.kind, narrative_type: n.ntype, content: n.content, gesture: n.gesture, context: n.context, moment: n.moment,
    cognition_direction: n.cognitionDirection, tags: n.tags, entities_role: n.entitiesRole, related_entities: n.relatedEntities,
    source_links: n.sourceLinks.map((id) => `e${id}`), importance: n.importance, emotional: n.emotional, recurrence: n.recurrence,
    unresolved: n.unresolved, weight: n.weight, created_at: n.createdAt,
  };
}

function registerWrites(server: McpServer, { memory }: ToolsetDeps): void {
  const s = narrativeInput.shape;
  addTool(server, {
    name: 'memory_write',
    title: 'Write a narrative',
    description:
      'Write a structured memory (Tideline narrative). `gesture` is required: one first-person sentence, with its tone, ' +
      'of what happened. Score importance, emotional charge and how unresolved it is 1-5; recurrence is computed from ' +
      'tag frequency, so search existing tags first and reuse them. `entities_role` like "A=judge+act; B=review" feeds the entity graph.',
    input: {
      ...s,
      gesture: s.gesture.describe('what happened: one first-person sentence with its tone (required)'),
      context: s.context.describe('the backdrop'),
      moment: s.moment.describe('the moment itself'),
      cognition_direction: s.cognition_direction.describe('where the thinking went'),
      tags: s.tags.describe('topic tags; reuse existing ones'),
      source_links: s.source_links.describe('episode ids this narrative comes from, as recall and timeline print them ("e12"; bare 12 also works)'),
      content: s.content.describe('legacy single-text form (Tideline); use gesture instead'),
      importance: s.importance.describe('how much it matters, 1-5'),
      emotional: s.emotional.describe('emotional charge, 1-5'),
      unresolved: s.unresolved.describe('how open it still is, 1-5'),
      recurrence: s.recurrence.describe('ignored: recurrence is computed from how often its tags occur'),
      entities_role: s.entities_role.describe('who did what, e.g. "A=judge+act; B=review"; feeds the entity graph'),
      related_entities: s.related_entities.describe('entities it is about; tags naming known persons are added'),
      narrative_type: s.narrative_type.describe('gesture, context, moment, self_reflection or general (default)'),
      kind: s.kind.describe('narrative (default), self_reflection or dream'),
      at: s.at.describe('when it happened: ISO 8601, YYYY-MM-DD or epoch ms (default now)'),
    },
    hints: { readOnly: false, idempotent: false },
    async run(args) {
      const r = await memory.write(args);
      return { text: `Wrote ${r.id}: weight=${r.weight.toFixed(2)} | tags: ${r.tags.join(', ') || '(none)'}`, data: { ...r } };
    },
  });
  addTool(server, {
    name: 'memory_write_profile',
    title: 'Write a profile',
    description: 'Create or replace what you know about an entity (a person, project, the user, "self") for one profile type; the previous version is kept as history.',
    input: {
      entity: profileInput.shape.entity.describe('who or what the profile is about: a person, a project, "user" or "self"'),
      profile_type: profileInput.shape.profile_type.describe('fact, impression (default), relationship, self or contact'),
      content: profileInput.shape.content.describe('the whole profile text; replaces the previous version (empty is refused)'),
      pinned: profileInput.shape.pinned.describe('inject this profile in full at session start (the 2 most recently updated pins; others get one line)'),
    },
    hints: { readOnly: false, idempotent: true },
    async run(args) {
      const r = await memory.writeProfile(args);
      return { text: `Profile ${r.entity}/${r.ptype} ${r.replaced ? 'updated (previous version kept)' : 'created'}.`, data: { ...r } };
    },
  });
  addTool(server, {
    name: 'memory_write_self_concept',
    title: 'Write self-concept',
    description: 'Set one self-concept field: fact (what I am), terrain (where I work and how), self_reflection (what I notice about myself). Replaces the field; history is kept.',
    input: {
      field: selfConceptInput.shape.field.describe('fact, terrain or self_reflection'),
      content: selfConceptInput.shape.content.describe('the new text of that field'),
    },
    hints: { readOnly: false, idempotent: true },
    async run(args) {
      const r = await memory.writeSelfConcept(args);
      return { text: `Self-concept ${r.field} ${r.replaced ? 'updated' : 'set'}.`, data: { ...r } };
    },
  });
  addTool(server, {
    name: 'memory_write_snapshot',
    title: 'Write a snapshot',
    description: 'Save a "how I am right now" slice (mood, focus, state of the work); the newest one opens the next session.',
    input: { content: snapshotInput.shape.content.describe('how things are right now, in a few sentences') },
    hints: { readOnly: false, idempotent: false },
    async run(args) {
      const r = await memory.writeSnapshot(args);
      return { text: `Snapshot ${r.id} saved.`, data: { ...r } };
    },
  });
  addTool(server, {
    name: 'memory_write_thread',
    title: 'Write a thread',
    description: 'Open an exploration thread (a question to come back to), or update one with `thread_id` (e.g. status explored or abandoned). Weighted by the four 1-5 scores.',
    input: {
      content: threadInput.shape.content.describe('the question or topic to come back to (required when opening a thread)'),
      importance: threadInput.shape.importance.describe('1-5, default 3'),
      emotional: threadInput.shape.emotional.describe('1-5, default 3'),
      recurrence: threadInput.shape.recurrence.describe('1-5, default 3'),
      unresolved: threadInput.shape.unresolved.describe('1-5, default 3'),
      status: threadInput.shape.status.describe('open (default), explored or abandoned'),
      thread_id: threadInput.shape.thread_id.describe('the thread to update (from memory_read_threads); omit to open a new one'),
    },
    hints: { readOnly: false, idempotent: false },
    async run(args) {
      const r = await memory.writeThread(args);
      return { text: `Thread ${r.id} ${r.created ? 'opened' : 'updated'} (w=${r.weight.toFixed(2)}).`, data: { ...r } };
    },
  });
  addTool(server, {
    name: 'context_record',
    title: 'Record context',
    description: 'Append raw text to the life log (what happened, verbatim). `metadata.session` ties it to a session.',
    input: { content: text.describe('the text to log'), metadata: jsonObject.optional().describe('free JSON; session is read from it') },
    hints: { readOnly: false, idempotent: false },
    async run({ content, metadata }) {
      const session = typeof metadata?.session === 'string' && metadata.session.trim() ? metadata.session : undefined;
      const r = await memory.record({ content, kind: 'note', role: 'assistant', session, meta: metadata ?? {} }, { source: 'context_record' });
      // What happened, not what is configured: an embedder that failed leaves the note lexical until it is embedded later.
      const embedded = r.ids.length > 0 && r.embedded === r.ids.length;
      const how = embedded
        ? 'vectorised'
        : memory.hasEmbedder
          ? 'lexical only for now: the embedder failed, it is embedded later (see tidepool doctor)'
          : 'lexical only (no embedder configured)';
      return { text: `Recorded ${r.ids.join(', ')} (${how}).`, data: { ...r, embedded } };
    },
  });
}

function registerReads(server: McpServer, { memory }: ToolsetDeps): void {
  addTool(server, {
    name: 'memory_recall',
    title: 'Recall narratives',
    description: 'List the newest narratives, optionally of one narrative_type or carrying any of the given tags.',
    input: {
      narrative_type: recallNarrativesInput.shape.narrative_type.describe('only this type: gesture, context, moment, self_reflection or general'),
      tags: recallNarrativesInput.shape.tags.describe('only narratives carrying any of these tags'),
      limit: limit(10),
    },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const rows = await memory.recallNarratives(defined(args));
      return { text: rows.length === 0 ? 'No narratives yet.' : rows.map(narrativeText).join('\n'), data: { narratives: rows.map(narrativeData) } };
    },
  });
  addTool(server, {
    name: 'memory_search',
    title: 'Search memory',
    description: 'Hybrid search (keywords + meaning) over narratives and the raw life log; returns up to 2×limit results. Exact keyword hits rank first. since/until take YYYY-MM-DD[ HH:MM:SS].',
    input: { query: text.describe('what to look for'), limit: limit(5), since: time.optional().describe('inclusive start'), until: endTime.optional().describe('inclusive end; a bare date YYYY-MM-DD means the end of that day') },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      // Tideline's memory_search returns up to 2×limit (SEEDS §1.5.4), within recall's 200.
      const hits = await memory.recall({ ...defined(args), limit: Math.min(2 * args.limit, 200), layers: ['narrative', 'episode'] }, { source: 'search' });
      return { text: hits.length === 0 ? 'Nothing found.' : hits.map(hitLine).join('\n'), data: { results: hits.map(hitJson) } };
    },
  });
  addTool(server, {
    name: 'context_search',
    title: 'Search the life log',
    description: 'Hybrid search over the raw life log only (turns, notes, tool results).',
    input: { query: text.describe('what to look for'), limit: limit(5) },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const hits = await memory.recall({ ...args, layers: ['episode'] }, { source: 'search' });
      return { text: hits.length === 0 ? 'Nothing found.' : hits.map(hitLine).join('\n'), data: { results: hits.map(hitJson) } };
    },
  });
  addTool(server, {
    name: 'context_timeline',
    title: 'Life-log timeline',
    description: 'Page through the raw life log (turns, notes, tool results), newest first, with a position header.',
    input: { limit: limit(20), offset: z.number().int().min(0).default(0).describe('skip this many, default 0') },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const page = await memory.timeline({ ...args, order: 'desc' });
      const head = `${page.offset + (page.items.length ? 1 : 0)}–${page.offset + page.items.length} / ${page.total}`;
      const lines = page.items.map((e) => `- [e${e.id} ${isoMinute(e.occurredAt)}] ${e.speaker ?? e.role ?? e.kind}: ${e.content}`);
      return { text: [head, ...lines].join('\n'), data: { total: page.total, offset: page.offset, items: page.items.map(episodeJson) } };
    },
  });
  addTool(server, {
    name: 'memory_read_profiles',
    title: 'Read profiles',
    description: 'Read what is known about people and things: every profile, or one entity\'s, newest first.',
    input: { entity: label.optional().describe('one entity only') },
    hints: { readOnly: true, idempotent: true },
    async run({ entity }) {
      const rows = await memory.profiles(entity);
      return { text: rows.length === 0 ? 'No profiles yet.' : rows.map((p) => `- ${p.entity}/${p.ptype}${p.pinned ? ' (pinned)' : ''}: ${p.content}`).join('\n'), data: { profiles: rows } };
    },
  });
  addTool(server, {
    name: 'memory_read_self_concept',
    title: 'Read self-concept',
    description: 'Read every self-concept field (fact, terrain, self_reflection): who I am, where and how I work, what I notice about myself.',
    input: {},
    hints: { readOnly: true, idempotent: true },
    async run() {
      const rows = await memory.selfConcept();
      return { text: rows.length === 0 ? 'No self-concept yet; write one with memory_write_self_concept.' : rows.map((c) => `- ${c.field}: ${c.content}`).join('\n'), data: { self_concept: rows } };
    },
  });
  addTool(server, {
    name: 'memory_read_snapshot',
    title: 'Read snapshots',
    description: 'Read the newest "how I am right now" snapshots (default: just the latest one).',
    input: { limit: limit(1) },
    hints: { readOnly: true, idempotent: true },
    async run({ limit: n }) {
      const rows = await memory.snapshots(n);
      return { text: rows.length === 0 ? 'No snapshots yet.' : rows.map((s) => `- [${isoMinute(s.createdAt)}] ${s.content}`).join('\n'), data: { snapshots: rows } };
    },
  });
  addTool(server, {
    name: 'memory_read_threads',
    title: 'Read threads',
    description: 'Read exploration threads (questions to come back to) by status, heaviest first.',
    input: { status: z.enum([...THREAD_STATUSES, 'all']).default('open').describe('open (default), explored, abandoned or all'), limit: limit(20) },
    hints: { readOnly: true, idempotent: true },
    async run({ status, limit: n }) {
      const rows = await memory.threads(status, n);
      return { text: rows.length === 0 ? `No ${status === 'all' ? '' : `${status} `}threads.` : rows.map((t) => `- [thread ${t.id} ${t.status} w=${t.weight.toFixed(2)}] ${t.content}`).join('\n'), data: { threads: rows } };
    },
  });
}

function registerDerived(server: McpServer, { memory }: ToolsetDeps): void {
  addTool(server, {
    name: 'memory_graph',
    title: 'Entity graph',
    description: 'Query the entity co-occurrence graph: `pair` "A,B" lists their shared narratives with each one\'s role, `entity` its partners, neither the most mentioned entities.',
    input: {
      entity: graphInput.shape.entity.describe('one entity: its partners and how often they co-occur'),
      pair: graphInput.shape.pair.describe('two entities "A,B": their shared narratives with each one\'s role'),
      limit: limit(10),
    },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const g = await memory.readGraph(defined(args));
      if (g.kind === 'empty') return { text: g.message, data: { ...g } };
      if (g.kind === 'top') return { text: g.nodes.map((n) => `- ${n.entity}: ${n.mentionCount} mentions`).join('\n'), data: { ...g } };
      if (g.kind === 'entity') {
        const head = `${g.node.entity}: ${g.node.mentionCount} mentions, first ${isoMinute(g.node.firstSeen)}, last ${isoMinute(g.node.lastSeen)}`;
        return { text: [head, ...g.partners.map((p) => `- with ${p.entity}: ${p.count}×`)].join('\n'), data: { ...g } };
      }
      const lines = g.edges.map((e) => `- [n${e.narrativeId} ${isoMinute(e.createdAt)}] ${e.entityA}=${e.roleA ?? '?'}, ${e.entityB}=${e.roleB ?? '?'}: ${e.gesture ?? ''}`);
      return { text: [`${g.entityA} & ${g.entityB}: ${g.edges.length} shared narrative(s)`, ...lines].join('\n'), data: { ...g } };
    },
  });
  addTool(server, {
    name: 'memory_attention_heatmap',
    title: 'Attention heatmap',
    description: 'Which clusters recall and injection hit in the last `days` days, with shares, average similarity, sources and the clusters never lit.',
    input: { days: heatmapInput.shape.days.describe('period in days, default 7') },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const v = await memory.readHeatmap(args);
      return { text: v.message ? `${v.message}\n\n${v.markdown}` : v.markdown, data: { heatmap: v.heatmap, ...(v.message ? { message: v.message } : {}) } };
    },
  });
  addTool(server, {
    name: 'memory_soft_clusters',
    title: 'Soft clusters',
    description: 'List the embedding-space clusters, or with `cluster_id` show its 10 members nearest the centroid and its 5 most adjacent clusters.',
    input: {
      cluster_id: softClustersInput.shape.cluster_id.describe('one cluster: its members nearest the centroid and its most adjacent clusters'),
      report: softClustersInput.shape.report.describe('accepted for Tideline compatibility; it changes nothing (Tideline ignored it too)'),
    },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const v = await memory.readSoftClusters(defined(args));
      if (v.kind === 'empty') return { text: v.message, data: { ...v } };
      if (v.kind === 'list') return { text: v.clusters.map((c) => `- #${c.id} ${c.name}: ${c.memberCount} members, ${c.degree} adjacent`).join('\n'), data: { ...v } };
      const lines = [
        `#${v.cluster.id} ${v.cluster.name}: ${v.cluster.memberCount} members`,
        ...v.members.map((m) => `- n${m.narrativeId} (distance ${m.distance.toFixed(3)}): ${m.gesture ?? ''}`),
        ...v.adjacent.map((a) => `- adjacent #${a.id} ${a.name}: ${a.shared} shared`),
      ];
      return { text: lines.join('\n'), data: { ...v } };
    },
  });
}

/** The Tideline toolset. */
export const toolset: Toolset = {
  name: 'tideline',
  summary: "Tideline's 17 tools: narratives, profiles, self-concept, snapshots, threads, life log, graph, heatmap, soft clusters",
  guide:
    'Write a narrative with memory_write when something meaningful happened (search tags first and reuse them); keep ' +
    'profiles, self-concept, snapshots and threads current; memory_search finds narratives and life-log entries.',
  tools: [
    'memory_write', 'memory_recall', 'memory_search', 'memory_write_profile', 'memory_read_profiles', 'memory_write_self_concept',
    'memory_read_self_concept', 'memory_write_snapshot', 'memory_read_snapshot', 'memory_write_thread', 'memory_read_threads',
    'context_record', 'context_search', 'context_timeline', 'memory_graph', 'memory_attention_heatmap', 'memory_soft_clusters',
  ],
  register(server, deps) {
    registerWrites(server, deps);
    registerReads(server, deps);
    registerDerived(server, deps);
  },
};
