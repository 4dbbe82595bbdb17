/** The OpenAPI 3.1 document of `/v1`, its request schemas generated from the same zod schemas that validate them. */
import { z } from 'zod';
import { browseKnowledgeInput } from '../../app/browse-knowledge.js';
import { knowInput } from '../../app/know.js';
import { editInput } from '../../app/remember.js';
import { reviewBody } from '../../app/review.js';
import { recallInput, recordInput, rememberInput, timelineInput } from '../../core/schemas.js';

function schema(s: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** Query parameters of a GET route, from an object schema's input JSON Schema (renames map body names to query names). */
function queryParams(s: z.ZodType, rename: Record<string, string> = {}): unknown[] {
  const js = schema(s) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, sch]) => ({
    name: rename[name] ?? name, in: 'query', required: (js.required ?? []).includes(name), schema: sch,
  }));
}

const ERROR = { $ref: '#/components/schemas/Error' };
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { description: 'error', content: { 'application/json': { schema: ERROR } } }]));
const ok = (description: string, type = 'application/json') => ({ description, content: { [type]: { schema: {} } } });
const body = (s: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(s) } } });

/** Builds the document (served at `/v1/openapi.json`). */
export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Tidepool HTTP API', version, description: 'Long-term memory for AI agents. Send `Authorization: Bearer <token>` unless the server is on loopback without tokens.' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object', required: ['error'],
          properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } } } },
        },
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v1/health': { get: { summary: 'liveness and version', security: [], responses: { 200: ok('ok') } } },
      '/v1/ingest': { post: { summary: 'record turns and tool results (tool + ok feed recipes)', requestBody: body(recordInput), responses: { 201: ok('ids'), ...errors(400, 401, 403, 413, 429) } } },
      '/v1/import': {
        post: {
          summary: 'bulk durable memories: one remember object per line (JSONL)',
          requestBody: { required: true, content: { 'application/x-ndjson': { schema: { type: 'string', description: `lines of ${JSON.stringify(schema(rememberInput))}` } } } },
          responses: { 201: ok('results'), ...errors(400, 401, 403, 413, 422, 429) },
        },
      },
      '/v1/remember': { post: { summary: 'store a durable memory', requestBody: body(rememberInput), responses: { 201: ok('created'), ...errors(400, 401, 403, 422, 429) } } },
      '/v1/recall': { get: { summary: 'hybrid search', parameters: queryParams(recallInput, { query: 'q' }), responses: { 200: ok('hits'), ...errors(400, 401, 429) } } },
      '/v1/know': { get: { summary: 'knowledge by subject, query, kinds', parameters: queryParams(knowInput, { query: 'q' }), responses: { 200: ok('entries'), ...errors(400, 401, 429) } } },
      '/v1/timeline': { get: { summary: 'raw history in time order (archive included)', parameters: queryParams(timelineInput), responses: { 200: ok('page'), ...errors(400, 401, 429) } } },
      '/v1/briefing': { get: { summary: 'the briefing of a day (default newest)', parameters: [{ name: 'date', in: 'query', schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } }], responses: { 200: ok('briefing or null with a message'), ...errors(400, 401, 429) } } },
      '/v1/export': { get: { summary: 'the space as JSON lines (streamed)', responses: { 200: ok('jsonl', 'application/x-ndjson'), ...errors(401, 429) } } },
      '/v1/spaces/{space}': { delete: { summary: "erase the token's own space (admin)", parameters: [{ name: 'space', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: ok('erased'), ...errors(401, 403, 429) } } },
      '/v1/knowledge': { get: { summary: 'browse knowledge by kind and status (dashboard)', parameters: queryParams(browseKnowledgeInput), responses: { 200: ok('items and counts'), ...errors(400, 401) } } },
      '/v1/review': { get: { summary: 'Needs review: quarantined knowledge and rows flagged for personal data in clear', responses: { 200: ok('items'), ...errors(401) } } },
      '/v1/knowledge/{id}/review': { post: { summary: 'approve or reject an item of Needs review (a quarantined entry, or a flagged e12/n3/k7)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], requestBody: body(reviewBody), responses: { 200: ok('new status'), ...errors(400, 401, 403, 404, 409) } } },
      '/v1/knowledge/{id}': { put: { summary: 'edit a live entry: the new text supersedes it (kept as history)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], requestBody: body(editInput.omit({ id: true })), responses: { 200: ok('the new entry'), ...errors(400, 401, 403, 404, 409, 422) } } },
      '/v1/items/{id}': { delete: { summary: 'forget one item (e12, n3, k7) with every copy of its text', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: ok('what was removed'), ...errors(400, 401, 403, 404) } } },
      '/v1/items/{id}/conversation': { get: { summary: 'the turns of the session around an item (its source episode)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'turns', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }], responses: { 200: ok('focus, session and turns'), ...errors(400, 401, 404) } } },
      '/v1/map': { get: { summary: 'topic and soft clusters, attention heatmap', responses: { 200: ok('map') } } },
      '/v1/graph': { get: { summary: 'entity co-occurrence graph (top entities and their edges)', responses: { 200: ok('nodes and edges') } } },
      '/v1/journal/workspaces': { get: { summary: 'registered journal workspaces', responses: { 200: ok('workspaces') } } },
      '/v1/journal/stats': { get: { summary: "a registered workspace's journal: tiers, files and their lookups", parameters: [{ name: 'root', in: 'query', required: true, schema: { type: 'string' } }], responses: { 200: ok('stats'), ...errors(400, 403) } } },
      '/v1/journal/day': { get: { summary: 'one day file of a registered workspace (default today; counts as a lookup)', parameters: [{ name: 'root', in: 'query', required: true, schema: { type: 'string' } }, { name: 'date', in: 'query', schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } }], responses: { 200: ok('the day or missing'), ...errors(400, 403) } } },
      '/v1/journal/config': {
        get: { summary: "a workspace's .tide.json settings", parameters: [{ name: 'root', in: 'query', required: true, schema: { type: 'string' } }], responses: { 200: ok('config'), ...errors(400, 403) } },
        put: { summary: 'save settings (patch) or restore defaults (reset) of one workspace (admin)', responses: { 200: ok('config'), ...errors(400, 403) } },
      },
    },
  };
}
