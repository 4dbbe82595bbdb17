/** REST API under `/v1`: ingest, import, remember, recall, know, timeline, briefing, export and erase. */
import { zValidator } from '@hono/zod-validator';
import type { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import { knowInput } from '../../app/know.js';
import { briefingInput } from '../../app/read-derived.js';
import { briefingJson, episodeJson, hitJson } from '../../app/wire-format.js';
import { parseRememberInput } from '../../app/remember.js';
import { isTidepoolError } from '../../core/errors.js';
import { MAX_BATCH, recallInput, recordInput, rememberInput, timelineInput } from '../../core/schemas.js';
import { requireScope, type HttpEnv } from './auth.js';
import { errorJson } from './error-handler.js';
import { defined } from '../../core/defined.js';
import { boolParam, listParam, numParam, queryOf, strParam } from './query-params.js';
import { invalidInput, jsonInput } from './route-input.js';

/** Turns an ingest envelope (`{type, payload}` or `{events: [...]}`) into record input; plain record input passes. */
function toRecordInput(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const b = body as Record<string, unknown>;
  const event = (e: unknown) => {
    if (typeof e !== 'object' || e === null || !('payload' in e)) return e;
    const { type, payload } = e as { type?: unknown; payload: Record<string, unknown> };
    // A tool result's `tool` and `ok` (success) are what the recipe job learns from (SEEDS §2.4).
    return type === 'tool_result' ? { role: 'tool', kind: 'tool_result', ...payload } : payload;
  };
  if (Array.isArray(b.events)) return { turns: b.events.map(event) };
  return 'payload' in b ? event(b) : body;
}

// Each route's input, read from its query string or body into the shape of the schema every surface uses.
const ingestBody = z.preprocess(toRecordInput, recordInput);
const recallQuery = z.preprocess((v) => {
  const q = queryOf(v);
  return defined({
    query: strParam(q, 'q') ?? strParam(q, 'query') ?? '', limit: numParam(q, 'limit'), layers: listParam(q, 'layers'),
    kinds: listParam(q, 'kinds'), since: numParam(q, 'since'), until: numParam(q, 'until'), session: strParam(q, 'session'),
    maxTokens: numParam(q, 'maxTokens'), includeArchived: boolParam(q, 'includeArchived'),
  });
}, recallInput);
const knowQuery = z.preprocess((v) => {
  const q = queryOf(v);
  return defined({ subject: strParam(q, 'subject'), query: strParam(q, 'q'), kinds: listParam(q, 'kinds'), limit: numParam(q, 'limit') });
}, knowInput);
const timelineQuery = z.preprocess((v) => {
  const q = queryOf(v);
  return defined({
    from: numParam(q, 'from'), to: numParam(q, 'to'), session: strParam(q, 'session'), limit: numParam(q, 'limit'),
    offset: numParam(q, 'offset'), order: strParam(q, 'order'),
  });
}, timelineInput);
const briefingQuery = z.preprocess((v) => {
  const q = queryOf(v);
  return defined({ day: strParam(q, 'date') ?? strParam(q, 'day') });
}, briefingInput);

/** Mounts the REST routes on `app` (behind `accessControl`); the scope is checked before the input. */
export function mountRestRoutes(app: Hono<HttpEnv>): void {
  app.post('/v1/ingest', requireScope('write'), jsonInput, zValidator('json', ingestBody, invalidInput), async (c) => {
    const r = await c.var.principal.memory.record(c.req.valid('json'), { source: 'ingest' });
    return c.json(r, 201);
  });

  app.post('/v1/import', requireScope('write'), async (c) => {
    const lines = (await c.req.text()).split('\n').map((l) => l.trim());
    const inputs = [];
    for (const [i, line] of lines.entries()) {
      if (!line) continue;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        return errorJson(c, 'invalid_input', `line ${i + 1}: not JSON`, `line ${i + 1}`);
      }
      try {
        // Credentials are refused here too, before anything is stored: all lines or none.
        inputs.push(parseRememberInput(v));
      } catch (e) {
        if (!isTidepoolError(e)) throw e;
        return errorJson(c, e.code, `line ${i + 1}: ${e.message}`, e.field ? `line ${i + 1}.${e.field}` : `line ${i + 1}`);
      }
    }
    if (inputs.length === 0) return errorJson(c, 'invalid_input', 'no memories: send one JSON object per line, e.g. {"text":"…"}', 'body');
    if (inputs.length > MAX_BATCH) return errorJson(c, 'too_large', `at most ${MAX_BATCH} lines per import`, 'body');
    const memory = c.var.principal.memory;
    const results = [];
    // Every line passed remember's own checks above, so only a storage error can stop the loop now.
    for (const input of inputs) results.push(await memory.remember(input));
    return c.json({ imported: results.length, results }, 201);
  });

  app.post('/v1/remember', requireScope('write'), jsonInput, zValidator('json', rememberInput, invalidInput), async (c) =>
    c.json(await c.var.principal.memory.remember(c.req.valid('json')), 201),
  );

  app.get('/v1/recall', zValidator('query', recallQuery, invalidInput), async (c) =>
    c.json({ hits: (await c.var.principal.memory.recall(c.req.valid('query'))).map(hitJson) }),
  );

  app.get('/v1/know', zValidator('query', knowQuery, invalidInput), async (c) =>
    c.json({ entries: await c.var.principal.memory.know(c.req.valid('query')) }),
  );

  app.get('/v1/timeline', zValidator('query', timelineQuery, invalidInput), async (c) => {
    const page = await c.var.principal.memory.timeline(c.req.valid('query'));
    return c.json({ total: page.total, offset: page.offset, items: page.items.map(episodeJson) });
  });

  app.get('/v1/briefing', zValidator('query', briefingQuery, invalidInput), async (c) => {
    const r = await c.var.principal.memory.readBriefing(c.req.valid('query'));
    return c.json(r.kind === 'found' ? { briefing: briefingJson(r.briefing), today: r.today } : { briefing: null, message: r.message });
  });

  app.get('/v1/export', requireScope('read'), (c) => {
    const memory = c.var.principal.memory;
    c.header('content-type', 'application/x-ndjson; charset=utf-8');
    c.header('content-disposition', `attachment; filename="tidepool-${memory.space}.jsonl"`);
    return stream(c, async (s) => {
      for await (const line of memory.export()) await s.write(`${line}\n`);
    });
  });

  app.delete('/v1/spaces/:space', requireScope('admin'), async (c) => {
    const p = c.var.principal;
    // The same answer for every other space, existing or not: a token must not learn which spaces exist.
    if (c.req.param('space') !== p.space) return errorJson(c, 'forbidden', 'a token can erase only its own space', 'space');
    await p.memory.forget({ all: true, confirm: true });
    return c.json({ erased: p.space });
  });
}
