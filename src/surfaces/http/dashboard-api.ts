/**
 * JSON reads and actions behind the dashboard pages: knowledge browse, review, edit and forget, a hit's conversation,
 * map, graph, the journal (read and settings).
 */
import type { Context, Hono } from 'hono';
import { browseKnowledge } from '../../app/browse-knowledge.js';
import { readHeatmap, readSoftClusters } from '../../app/read-clusters.js';
import { readTopicClusters } from '../../app/read-derived.js';
import { readGraph } from '../../app/read-graph.js';
import { readConversation } from '../../app/read-conversation.js';
import { editKnowledge } from '../../app/remember.js';
import { listReview, review, reviewBody } from '../../app/review.js';
import { parseInput } from '../../core/schemas.js';
import { denyUnless, principalOf } from './auth.js';
import { defined } from '../../core/defined.js';
import { numParam } from './query-params.js';
import { jsonBody } from './rest-routes.js';

// The graph page draws at most this many entities: beyond it a force layout is unreadable.
const GRAPH_NODES = 40;

function journalOf(c: Context) {
  // Over HTTP every caller, tokenless included (a browser could be made to send the request), reaches only the
  // workspaces registered to its own space (DESIGN §10); registering one is the local CLI's job.
  return principalOf(c).memory.journal({ confined: true });
}

/** Mounts the dashboard's API routes (behind `accessControl`). */
export function mountDashboardApi(app: Hono): void {
  app.get('/v1/knowledge', async (c) => {
    const input = defined({ kind: c.req.query('kind'), status: c.req.query('status'), limit: numParam(c, 'limit'), offset: numParam(c, 'offset') });
    return c.json(await browseKnowledge(principalOf(c).memory.ctx, input));
  });

  app.get('/v1/review', async (c) => c.json({ items: await listReview(principalOf(c).memory.ctx) }));

  app.post('/v1/knowledge/:id/review', async (c) => {
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    const { decision } = parseInput(reviewBody, await jsonBody(c));
    // The one review path (app/review.ts), as the CLI and MCP take it.
    return c.json(await review(principalOf(c).memory.ctx, { id: c.req.param('id'), verdict: decision }));
  });

  app.put('/v1/knowledge/:id', async (c) => {
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    const body = (await jsonBody(c)) as { text?: unknown };
    // An edit is a remember that supersedes the entry (app/remember.ts), as every surface corrects knowledge.
    return c.json(await editKnowledge(principalOf(c).memory.ctx, { id: c.req.param('id'), text: body?.text }));
  });

  app.delete('/v1/items/:id', async (c) => {
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    // The one forget path (app/forget.ts): the item and every copy of its text, to the byte.
    return c.json(await principalOf(c).memory.forget({ id: c.req.param('id') }));
  });

  app.get('/v1/items/:id/conversation', async (c) => {
    const input = defined({ id: c.req.param('id'), turns: numParam(c, 'turns') });
    return c.json(await readConversation(principalOf(c).memory.ctx, input));
  });

  app.get('/v1/map', async (c) => {
    const ctx = principalOf(c).memory.ctx;
    const [topics, soft, heat] = await Promise.all([
      readTopicClusters(ctx, { minSize: 1, limit: 50 }),
      readSoftClusters(ctx, {}),
      readHeatmap(ctx, defined({ days: numParam(c, 'days') })),
    ]);
    return c.json({ topics, soft, heatmap: heat.heatmap, heatmapMessage: heat.message ?? null });
  });

  app.get('/v1/graph', async (c) => {
    const ctx = principalOf(c).memory.ctx;
    const top = await readGraph(ctx, { limit: GRAPH_NODES });
    if (top.kind !== 'top') return c.json({ nodes: [], edges: [], message: top.kind === 'empty' ? top.message : null });
    const names = new Set(top.nodes.map((n) => n.entity));
    const edges: Array<{ a: string; b: string; count: number }> = [];
    for (const n of top.nodes) {
      const v = await readGraph(ctx, { entity: n.entity, limit: GRAPH_NODES });
      if (v.kind !== 'entity') continue;
      // Each pair once: keep the edge from the alphabetically smaller end.
      for (const p of v.partners) if (names.has(p.entity) && n.entity < p.entity) edges.push({ a: n.entity, b: p.entity, count: p.count });
    }
    return c.json({ nodes: top.nodes, edges, message: null });
  });

  app.get('/v1/journal/workspaces', async (c) => c.json(await journalOf(c).workspaces()));

  app.get('/v1/journal/stats', async (c) => c.json(await journalOf(c).stats({ root: c.req.query('root') ?? '' })));

  app.get('/v1/journal/day', async (c) =>
    c.json(await journalOf(c).read(defined({ root: c.req.query('root') ?? '', date: c.req.query('date') }) as never)),
  );

  app.get('/v1/journal/config', async (c) => c.json(await journalOf(c).config({ root: c.req.query('root') ?? '' })));

  app.put('/v1/journal/config', async (c) => {
    const denied = denyUnless(c, 'admin');
    if (denied) return denied;
    const body = (await jsonBody(c)) as { root?: unknown; patch?: unknown; reset?: unknown };
    return c.json(await journalOf(c).config({ root: body?.root, patch: body?.patch, reset: body?.reset === true } as never));
  });
}
