/** One error shape for the HTTP API, `{ error: { code, message, field? } }`, with the status each TidepoolError code maps to. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isTidepoolError, type TidepoolErrorCode } from '../../core/errors.js';

/** HTTP status of each error code. */
export const STATUS_OF: Record<TidepoolErrorCode, ContentfulStatusCode> = {
  invalid_input: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409, too_large: 413,
  secret_refused: 422, locked: 423, rate_limited: 429, internal: 500, io_failed: 500, llm_failed: 502, unavailable: 503,
};

/** The JSON error response. */
export function errorJson(c: Context, code: TidepoolErrorCode, message: string, field?: string, headers?: Record<string, string>): Response {
  return c.json({ error: { code, message, ...(field ? { field } : {}) } }, STATUS_OF[code], headers);
}

/** Hono `onError`: TidepoolErrors keep their code; body-limit and parse failures become 413/400; the rest is 500. */
export function onHttpError(e: Error, c: Context): Response {
  if (isTidepoolError(e)) return errorJson(c, e.code, e.message, e.field);
  if (e instanceof HTTPException) {
    const code: TidepoolErrorCode = e.status === 413 ? 'too_large' : e.status === 401 ? 'unauthorized' : e.status < 500 ? 'invalid_input' : 'internal';
    return errorJson(c, code, e.message || 'request refused');
  }
  if (e instanceof SyntaxError) return errorJson(c, 'invalid_input', `the request body is not valid JSON: ${e.message}`);
  // Internal details stay in the log, not in the response.
  console.error(e);
  return errorJson(c, 'internal', 'internal error');
}
