/**
 * Route input at the edge: `@hono/zod-validator` checks each route's input with the zod schema the other surfaces
 * use, and a failure is the API's one error shape (`invalid_input`, the field named as `parseInput` names it).
 */
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { TidepoolError } from '../../core/errors.js';
import { inputError } from '../../core/schemas.js';
import type { HttpEnv } from './auth.js';

/**
 * The validator's hook: a failed parse throws the `invalid_input` error `parseInput` would throw, which `onError`
 * answers (400 `{ error: { code, message, field } }`), so the edge and the use case word a bad field alike.
 * @example app.post('/v1/remember', jsonInput, zValidator('json', rememberInput, invalidInput), handler)
 */
export function invalidInput(r: { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }): void {
  if (!r.success) throw inputError(r.error?.issues ?? []);
}

// The media types the validator reads as JSON (hono/validator's own test).
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Reads the body as JSON whatever its content type, as the API always has (`curl -d` sends a form type), and refuses
 * a body that is not JSON with the API's own message.
 * Trigger: a body whose content type is not JSON. Why: the validator reads only a JSON-typed body and would see `{}`.
 * Outcome: the request is re-typed as JSON (as hono's body-limit re-wraps `c.req.raw`) before the validator reads it.
 */
export const jsonInput: MiddlewareHandler<HttpEnv> = async (c, next) => {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type)) {
    const headers = new Headers(c.req.raw.headers);
    headers.set('content-type', 'application/json');
    c.req.raw = new Request(c.req.raw, { headers });
  }
  try {
    // Parsed once here for the error; hono caches the body, so the validator reads it again without the network.
    await c.req.json();
  } catch (e) {
    throw new TidepoolError('invalid_input', 'the request body must be JSON (content-type: application/json)', { cause: e });
  }
  await next();
};
