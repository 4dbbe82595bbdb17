/** The `core` toolset: remember, record, recall, know, timeline, briefing, self, gaps, forget. */
import { z } from 'zod';
import { knowInput } from '../../app/know.js';
import { hitText } from '../../app/recall.js';
import { briefingInput, gapsInput } from '../../app/read-derived.js';
import { TidepoolError } from '../../core/errors.js';
import { forgetInput, parseInput, recallInput, recordTurn, rememberInput, text, timelineInput, type RecordInput } from '../../core/schemas.js';
import { briefingJson, episodeJson, hitJson } from '../../app/wire-format.js';
import { defined } from '../../core/defined.js';
import { addTool, isoMinute, type Toolset, type ToolsetDeps } from './toolset.js';
import type { McpServer } from '@modelcontextprotocol/server';

const recallShape = recallInput.in.shape;
const turnShape = recordTurn.pick({ role: true, content: true, session: true, tool: true, ok: true, at: true }).shape;
const forgetById = forgetInput.options[0].shape;
const forgetByKey = forgetInput.options[1].shape;

/** One hit as an agent reads it: the app's one renderer of a hit. */
export const hitLine = hitText;

function register(server: McpServer, { memory, eraseSpace }: ToolsetDeps): void {
  addTool(server, {
    name: 'remember',
    title: 'Remember',
    description:
      'Store a durable memory: a fact, decision, preference or ID worth keeping across sessions. Give a stable `key` ' +
      '(e.g. "staging.db.port") so a later remember with the same key replaces the old value (history is kept). ' +
      'Credentials are refused: store where a secret lives, never the secret.',
    input: {
      text: rememberInput.shape.text.describe('what to remember, one self-contained statement'),
      key: rememberInput.shape.key.describe('stable key; a later value with the same key supersedes this one'),
      kind: rememberInput.shape.kind.describe('fact (default), entity, preference, procedure, concept, open_problem or recipe'),
      importance: rememberInput.shape.importance.describe('1-5, default 3'),
      durable: rememberInput.shape.durable.describe('keep forever (default true)'),
      tags: rememberInput.shape.tags.describe('topic tags; reuse existing ones'),
    },
    hints: { readOnly: false, idempotent: false },
    async run(args) {
      const r = await memory.remember(args);
      const text =
        r.kind === 'superseded' ? `Remembered ${r.id} (replaces ${r.supersedes}).` : r.kind === 'reinforced' ? `Already known: ${r.id} (seen ${r.occurrences}×).` : `Remembered ${r.id}.`;
      return { text, data: { ...r } };
    },
  });

  addTool(server, {
    name: 'record',
    title: 'Record turns',
    description:
      'Record what happened verbatim: conversation turns, tool calls and tool results (with `tool` and `ok`), for later ' +
      'recall and nightly consolidation. Send one turn as `content` (+ role, session…) or a batch as `turns`. ' +
      'Credentials in the text are redacted.',
    input: {
      turns: z.array(z.object(turnShape)).min(1).max(10_000).optional().describe('a batch of turns: {role, content, session?, tool?, ok?, at?}'),
      content: text.optional().describe('one turn\'s text (instead of turns)'),
      role: turnShape.role.optional().describe('user (default), assistant, system or tool'),
      session: turnShape.session.describe('session id the turn belongs to'),
      tool: turnShape.tool.describe('tool name, for tool calls and results'),
      ok: turnShape.ok.describe('whether the tool call succeeded'),
      at: turnShape.at.describe('when it happened: ISO 8601 or epoch ms (default now)'),
    },
    hints: { readOnly: false, idempotent: false },
    async run({ turns, content, ...turn }) {
      // A batch with `content` beside it is passed on as sent, for the app's strict schema to refuse by name.
      const input: RecordInput | undefined =
        turns !== undefined
          ? { turns, ...(content !== undefined ? { content } : {}) }
          : content !== undefined
            ? { ...defined(turn), content }
            : undefined;
      if (input === undefined) {
        throw new TidepoolError('invalid_input', 'content: give the turn text as content, or a batch as turns', { field: 'content' });
      }
      const r = await memory.record(input);
      return { text: `Recorded ${r.ids.length} episode(s)${r.skipped ? `, ${r.skipped} already present` : ''}${r.redacted ? `, ${r.redacted} secret(s) redacted` : ''}.`, data: { ...r } };
    },
  });

  addTool(server, {
    name: 'recall',
    title: 'Recall',
    description:
      'Search the whole memory (raw episodes, narratives, knowledge) for a topic. Call it at the start of a task and ' +
      'before answering anything about past work, decisions, people or preferences. Exact phrase hits come first; ' +
      'ids (e12, n3, k7) can be passed to forget. `topic` is accepted as another name for `query`.',
    input: {
      query: recallShape.query.describe('what to look for (words, a phrase, an id or code)'),
      topic: recallShape.topic.describe('alias of query (Tulimoa)'),
      limit: recallShape.limit.describe('most results, default 10'),
      layers: recallShape.layers.describe('restrict to episode, narrative and/or knowledge'),
      since: recallShape.since.describe('only items at or after this time (ISO 8601, YYYY-MM-DD or epoch ms)'),
      until: recallShape.until.describe('only items at or before this time; a bare date YYYY-MM-DD means the end of that day'),
      max_tokens: recallShape.maxTokens.describe('fit the results into this many tokens (whole items are dropped, never cut)'),
    },
    hints: { readOnly: true, idempotent: true },
    async run({ max_tokens, ...rest }) {
      const hits = await memory.recall({ ...defined(rest), ...(max_tokens !== undefined ? { maxTokens: max_tokens } : {}) });
      return { text: hits.length === 0 ? 'Nothing found.' : hits.map(hitLine).join('\n'), data: { results: hits.map(hitJson) } };
    },
  });

  addTool(server, {
    name: 'know',
    title: 'Know',
    description:
      'Look up consolidated knowledge (facts, entities, preferences, procedures, concepts, open problems, recipes) by ' +
      'free-text query, subject and/or kinds. Only reliable and provisional entries are returned, never quarantined ones. ' +
      'Without arguments it lists the strongest knowledge.',
    input: {
      query: knowInput.shape.query.describe('free-text search within knowledge'),
      subject: knowInput.shape.subject.describe('the entity or topic the knowledge is about'),
      kinds: knowInput.shape.kinds.describe('fact, entity, preference, procedure, concept, open_problem, recipe'),
      limit: knowInput.shape.limit.describe('most entries, default 10'),
    },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const entries = await memory.know(defined(args));
      const text =
        entries.length === 0
          ? 'No knowledge matches. Knowledge grows from remember and from nightly consolidation; try recall for raw history.'
          : entries.map((k) => `- [${k.id} ${k.kind}, ${k.status}, strength ${k.strength.toFixed(2)}]${k.subject ? ` ${k.subject}:` : ''} ${k.content}`).join('\n');
      return { text, data: { entries } };
    },
  });

  addTool(server, {
    name: 'timeline',
    title: 'Timeline',
    description:
      'Read the raw verbatim history in time order (archived episodes included), e.g. "what happened yesterday" or one ' +
      'session. Page with limit/offset; newest first by default.',
    input: {
      from: timelineInput.shape.from.describe('start (ISO 8601, YYYY-MM-DD or epoch ms)'),
      to: timelineInput.shape.to.describe('end, inclusive; a bare date YYYY-MM-DD means the end of that day'),
      session: timelineInput.shape.session.describe('one session only'),
      limit: timelineInput.shape.limit.describe('page size, default 20'),
      offset: timelineInput.shape.offset.describe('skip this many, default 0'),
      order: timelineInput.shape.order.describe('desc (newest first, default) or asc'),
    },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const page = await memory.timeline(defined(args));
      const head = `${page.offset + (page.items.length ? 1 : 0)}–${page.offset + page.items.length} / ${page.total}`;
      const lines = page.items.map((e) => `- [e${e.id} ${isoMinute(e.occurredAt)}${e.session ? ` ${e.session}` : ''}] ${e.speaker ?? e.role ?? e.kind}: ${e.content}`);
      return { text: [head, ...lines].join('\n'), data: { total: page.total, offset: page.offset, items: page.items.map(episodeJson) } };
    },
  });

  addTool(server, {
    name: 'briefing',
    title: 'Morning briefing',
    description:
      'Read the morning briefing the nightly sleep wrote: what was learned, reinforced and forgotten, open problems, ' +
      'items that need review, ideas. Without a day it returns the newest one.',
    input: { day: briefingInput.shape.day.describe('UTC day YYYY-MM-DD (default: the newest briefing)') },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const r = await memory.readBriefing(defined(args));
      if (r.kind === 'none') return { text: r.message, data: { briefing: null, message: r.message } };
      const b = r.briefing;
      return { text: b.body.includes(b.headline) ? b.body : `${b.headline}\n\n${b.body}`, data: { briefing: briefingJson(b), today: r.today } };
    },
  });

  addTool(server, {
    name: 'self',
    title: 'Self-image',
    description: 'Read who this agent is to itself: the self-concept (fact, terrain, reflection) and the self-image the sleep writes (what it works on, how the user wants things done, where it gets stuck).',
    input: {},
    hints: { readOnly: true, idempotent: true },
    async run() {
      const v = await memory.readSelf();
      const lines = [
        ...v.concept.map((c) => `- ${c.field}: ${c.content}`),
        ...Object.entries(v.image ?? {}).map(([k, c]) => `- ${k.replace(/_/g, ' ')}: ${c}`),
      ];
      return { text: v.message ?? lines.join('\n'), data: { concept: v.concept, image: v.image, knowledge_count: v.knowledgeCount, ...(v.message ? { message: v.message } : {}) } };
    },
  });

  addTool(server, {
    name: 'gaps',
    title: 'Knowledge gaps',
    description: 'List topics that are mentioned often but barely linked to anything else: worth exploring or asking the user about.',
    input: { limit: gapsInput.shape.limit.describe('most gaps, default 10') },
    hints: { readOnly: true, idempotent: true },
    async run(args) {
      const r = await memory.readGaps(args);
      const text = r.message ?? r.gaps.map((g) => `- ${g.topic} (mentioned ${g.mentions}×, ${g.degree} link${g.degree === 1 ? '' : 's'})`).join('\n');
      return { text, data: { gaps: r.gaps, ...(r.message ? { message: r.message } : {}) } };
    },
  });

  addTool(server, {
    name: 'forget',
    title: 'Forget',
    description:
      'Delete a memory for good: one item by `id` (e12, n3, k7 as shown by recall), every version of a `key`, or the ' +
      'whole space with `all: true` and `confirm: true`. Use it to correct wrong memories (then remember the right one).',
    input: {
      id: forgetById.id.optional().describe('item id, e.g. k12'),
      key: forgetByKey.key.optional().describe('forget every version of this key'),
      all: z.boolean().optional().describe('erase the whole space (needs confirm: true)'),
      confirm: z.boolean().optional().describe('must be true together with all'),
    },
    hints: { readOnly: false, destructive: true, idempotent: false },
    async run(args) {
      const given = defined(args);
      if (Object.keys(given).length === 0) throw new TidepoolError('invalid_input', 'id: give an id, a key, or all: true with confirm: true', { field: 'id' });
      if (given.all === true && !eraseSpace) throw new TidepoolError('forbidden', 'erasing the whole space needs an admin token; forget items by id or key instead', { field: 'all' });
      // The same schema the app applies: it picks which of id, key or all this is, and refuses a mix by name.
      const r = await memory.forget(parseInput(forgetInput, given));
      const copies = r.kind !== 'space' && r.copies > 0 ? ` Also removed ${r.copies} copy(ies) of the text.` : '';
      const text = r.kind === 'space' ? `Erased space ${r.space}.` : r.kind === 'key' ? `Forgot ${r.removed} version(s) of key ${r.key}.${copies}` : `Forgot ${r.id}.${copies}`;
      return { text, data: { ...r } };
    },
  });
}

/** The core toolset. */
export const toolset: Toolset = {
  name: 'core',
  summary: 'remember, record, recall, know, timeline, briefing, self, gaps, forget',
  guide:
    'At the start of a task read tidepool://context or call recall with the topic; recall again before answering about ' +
    'the past. Store durable facts with remember (a key lets you update them), raw turns and tool results with record, ' +
    'and correct mistakes with forget + remember.',
  tools: ['remember', 'record', 'recall', 'know', 'timeline', 'briefing', 'self', 'gaps', 'forget'],
  register,
};
