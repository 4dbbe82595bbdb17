/** Turns an SDK failure (after the SDK's own retries) into a `TidepoolError` with code `llm_failed`. */

import { TidepoolError } from '../../core/errors.js';

/** Wraps `cause` thrown by a provider SDK; keeps the HTTP status in `details.status` when there is one. */
export function providerError(modelName: string, cause: unknown): TidepoolError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new TidepoolError('llm_failed', `${modelName} failed: ${message}`, {
    cause,
    details: { model: modelName, status: statusOf(cause) },
  });
}

function statusOf(cause: unknown): number | undefined {
  if (typeof cause === 'object' && cause !== null && 'status' in cause && typeof cause.status === 'number') {
    return cause.status;
  }
  return undefined;
}
