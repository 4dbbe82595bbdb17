/** REST API under `/v1`: ingest, import, remember, recall, know, timeline, briefing, export and erase. */
import type { Context, Hono } from 'hono';
import { stream } from 'hono/streaming';
import { know } from '../../app/know.js';
import { readBriefing } from '../../app/read-derived.js';
import { briefingJson, episodeJson, hitJson } from '../../app/wire-format.js';
import { parseRememberInput } from '../../app/remember.js';
import { isTidepoolError, TidepoolError } from '../../core/errors.js';
import { MAX_BATCH } from '../../core/schemas.js';
import { denyUnless, principalOf } from './auth.js';
import { errorJson } from './error-handler.js';
import { defined } from '../../core/defined.js';
import { boolParam, listParam, numParam } from './query-params.js';

/** Reads the JSON body; a body that is not JSON is `invalid_input`. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch (e) {
    throw new TidepoolError('invalid_input', 'the request body must be JSON (content-type: application/json)', { cause: e });
  }
}

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

/** Mounts the REST routes on `app` (behind `accessControl`). */
export function mountRestRoutes(app: Hono): void {
  app.post('/v1/ingest', async (c) => {
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    const r = await principalOf(c).memory.record(toRecordInput(await jsonBody(c)) as never, { source: 'ingest' });
    return c.json(r, 201);
  });

  app.post('/v1/import', async (c) => {
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    const lines = (await c.req.text()).split('\n').map((l) => l.trim());
    const inputs: unknown[] = [];
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
    const memory = principalOf(c).memory;
    const results = [];
    // Every line passed remember's own checks above, so only a storage error can stop the loop now.
    for (const input of inputs) results.push(await memory.remember(input as never));
    return c.json({ imported: results.length, results }, 201);
  });

  app.post('/v1/remember', async (c) => {
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    return c.json(await principalOf(c).memory.remember((await jsonBody(c)) as never), 201);
  });

  app.get('/v1/recall', async (c) => {
    const input = defined({
      query: c.req.query('q') ?? c.req.query('query') ?? '', limit: numParam(c, 'limit'), layers: listParam(c, 'layers'),
      kinds: listParam(c, 'kinds'), since: numParam(c, 'since'), until: numParam(c, 'until'), session: c.req.query('session'),
      maxTokens: numParam(c, 'maxTokens'), includeArchived: boolParam(c, 'includeArchived'),
    });
    return c.json({ hits: (await principalOf(c).memory.recall(input as never)).map(hitJson) });
  });

  app.get('/v1/know', async (c) => {
    const input = defined({ subject: c.req.query('subject'), query: c.req.query('q'), kinds: listParam(c, 'kinds'), limit: numParam(c, 'limit') });
    return c.json({ entries: await know(principalOf(c).memory.ctx, input as never) });
  });

  app.get('/v1/timeline', async (c) => {
    const input = defined({
      from: numParam(c, 'from'), to: numParam(c, 'to'), session: c.req.query('session'), limit: numParam(c, 'limit'),
      offset: numParam(c, 'offset'), order: c.req.query('order'),
    });
    const page = await principalOf(c).memory.timeline(input as never);
    return c.json({ total: page.total, offset: page.offset, items: page.items.map(episodeJson) });
  });

  app.get('/v1/briefing', async (c) => {
    const r = await readBriefing(principalOf(c).memory.ctx, defined({ day: c.req.query('date') ?? c.req.query('day') }));
    return c.json(r.kind === 'found' ? { briefing: briefingJson(r.briefing), today: r.today } : { briefing: null, message: r.message });
  });

  app.get('/v1/export', (c) => {
    const denied = denyUnless(c, 'read');
    if (denied) return denied;
    const memory = principalOf(c).memory;
    c.header('content-type', 'application/x-ndjson; charset=utf-8');
    c.header('content-disposition', `attachment; filename="tidepool-${memory.space}.jsonl"`);
    return stream(c, async (s) => {
      for await (const line of memory.export()) await s.write(`${line}\n`);
    });
  });

  app.delete('/v1/spaces/:space', async (c) => {
    const denied = denyUnless(c, 'admin');
    if (denied) return denied;
    const p = principalOf(c);
    // The same answer for every other space, existing or not: a token must not learn which spaces exist.
    if (c.req.param('space') !== p.space) return errorJson(c, 'forbidden', 'a token can erase only its own space', 'space');
    await p.memory.forget({ all: true, confirm: true });
    return c.json({ erased: p.space });
  });
}
