/**
 * JSON reads and actions behind the dashboard pages: knowledge browse, review, edit and forget, a hit's conversation,
 * map, graph, the journal (read and settings).
 */
import { zValidator } from '@hono/zod-validator';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { browseKnowledgeInput } from '../../app/browse-knowledge.js';
import { JournalConfigInput, JournalReadInput, JournalRootInput } from '../../app/journal-service.js';
import { heatmapInput } from '../../app/read-clusters.js';
import { reviewBody } from '../../app/review.js';
import { requireScope, type HttpEnv } from './auth.js';
import { defined } from '../../core/defined.js';
import { numParam, queryOf, strParam } from './query-params.js';
import { invalidInput, jsonInput } from './route-input.js';

// The graph page draws at most this many entities: beyond it a force layout is unreadable.
const GRAPH_NODES = 40;

function journalOf(c: Context<HttpEnv>) {
  // Over HTTP every caller, tokenless included (a browser could be made to send the request), reaches only the
  // workspaces registered to its own space (DESIGN §10); registering one is the local CLI's job.
  return c.var.principal.memory.journal({ confined: true });
}

// Each route's input, read from its query string, path or body into the shape of the schema every surface uses.
const browseQuery = z.preprocess((v) => {
  const q = queryOf(v);
  return defined({ kind: strParam(q, 'kind'), status: strParam(q, 'status'), limit: numParam(q, 'limit'), offset: numParam(q, 'offset') });
}, browseKnowledgeInput);
const heatmapQuery = z.preprocess((v) => defined({ days: numParam(queryOf(v), 'days') }), heatmapInput);
const rootQuery = z.preprocess((v) => ({ root: strParam(queryOf(v), 'root') ?? '' }), JournalRootInput);
const dayQuery = z.preprocess((v) => {
  const q = queryOf(v);
  return defined({ root: strParam(q, 'root') ?? '', date: strParam(q, 'date') });
}, JournalReadInput);
const configBody = z.preprocess((v) => {
  const b = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  return { root: b.root, patch: b.patch, reset: b.reset === true };
}, JournalConfigInput);

/** Mounts the dashboard's API routes (behind `accessControl`); the scope is checked before the input. */
export function mountDashboardApi(app: Hono<HttpEnv>): void {
  app.get('/v1/knowledge', zValidator('query', browseQuery, invalidInput), async (c) =>
    c.json(await c.var.principal.memory.browseKnowledge(c.req.valid('query'))),
  );

  app.get('/v1/review', async (c) => c.json({ items: await c.var.principal.memory.reviewList() }));

  app.post('/v1/knowledge/:id/review', requireScope('write'), jsonInput, zValidator('json', reviewBody, invalidInput), async (c) => {
    // The one review path (app/review.ts), as the CLI and MCP take it.
    return c.json(await c.var.principal.memory.review({ id: c.req.param('id'), verdict: c.req.valid('json').decision }));
  });

  app.put('/v1/knowledge/:id', requireScope('write'), jsonInput, async (c) => {
    const body = (await c.req.json()) as { text?: unknown } | null;
    // An edit is a remember that supersedes the entry (app/remember.ts), as every surface corrects knowledge. Its id
    // is in the path and its text in the body, so the use case checks the pair with `editInput` (id named first).
    return c.json(await c.var.principal.memory.editKnowledge({ id: c.req.param('id'), text: body?.text }));
  });

  app.delete('/v1/items/:id', requireScope('write'), async (c) => {
    // The one forget path (app/forget.ts): the item and every copy of its text, to the byte.
    return c.json(await c.var.principal.memory.forget({ id: c.req.param('id') }));
  });

  app.get('/v1/items/:id/conversation', async (c) => {
    // The id is in the path and the turns in the query: the use case checks the pair with `conversationInput`.
    const input = defined({ id: c.req.param('id'), turns: numParam(c.req.queries(), 'turns') });
    return c.json(await c.var.principal.memory.readConversation(input));
  });

  app.get('/v1/map', zValidator('query', heatmapQuery, invalidInput), async (c) => {
    const memory = c.var.principal.memory;
    const [topics, soft, heat] = await Promise.all([
      memory.readTopicClusters({ minSize: 1, limit: 50 }),
      memory.readSoftClusters({}),
      memory.readHeatmap(c.req.valid('query')),
    ]);
    return c.json({ topics, soft, heatmap: heat.heatmap, heatmapMessage: heat.message ?? null });
  });

  app.get('/v1/graph', async (c) => {
    const memory = c.var.principal.memory;
    const top = await memory.readGraph({ limit: GRAPH_NODES });
    if (top.kind !== 'top') return c.json({ nodes: [], edges: [], message: top.kind === 'empty' ? top.message : null });
    const names = new Set(top.nodes.map((n) => n.entity));
    const edges: Array<{ a: string; b: string; count: number }> = [];
    for (const n of top.nodes) {
      const v = await memory.readGraph({ entity: n.entity, limit: GRAPH_NODES });
      if (v.kind !== 'entity') continue;
      // Each pair once: keep the edge from the alphabetically smaller end.
      for (const p of v.partners) if (names.has(p.entity) && n.entity < p.entity) edges.push({ a: n.entity, b: p.entity, count: p.count });
    }
    return c.json({ nodes: top.nodes, edges, message: null });
  });

  app.get('/v1/journal/workspaces', async (c) => c.json(await journalOf(c).workspaces()));

  app.get('/v1/journal/stats', zValidator('query', rootQuery, invalidInput), async (c) => c.json(await journalOf(c).stats(c.req.valid('query'))));

  app.get('/v1/journal/day', zValidator('query', dayQuery, invalidInput), async (c) => c.json(await journalOf(c).read(c.req.valid('query'))));

  app.get('/v1/journal/config', zValidator('query', rootQuery, invalidInput), async (c) => c.json(await journalOf(c).config(c.req.valid('query'))));

  app.put('/v1/journal/config', requireScope('admin'), jsonInput, zValidator('json', configBody, invalidInput), async (c) =>
    c.json(await journalOf(c).config(c.req.valid('json'))),
  );
}
