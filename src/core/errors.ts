/** The one error type of Tidepool: a string-literal code, details and a cause (STYLE §5). */

/** Every error code a surface can translate into a status, an exit code or an MCP error. */
export type TidepoolErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'conflict'
  | 'secret_refused'
  | 'forbidden'
  | 'unauthorized'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'llm_failed'
  | 'locked'
  | 'io_failed'
  | 'internal';

/** Error with a machine-readable code; `field` names the offending input field when there is one. */
export class TidepoolError extends Error {
  readonly code: TidepoolErrorCode;
  readonly details: Record<string, unknown>;
  readonly field: string | undefined;

  constructor(
    code: TidepoolErrorCode,
    message: string,
    options: { field?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TidepoolError';
    this.code = code;
    this.field = options.field;
    this.details = options.details ?? {};
  }
}

/**
 * True when `e` is a TidepoolError, optionally with the given code. An error of another copy of this module counts
 * too (the bundled CLI and the modules it loads lazily, or two installed copies), so it is recognised by name and code.
 */
export function isTidepoolError(e: unknown, code?: TidepoolErrorCode): e is TidepoolError {
  const tidepool = e instanceof TidepoolError || (e instanceof Error && e.name === 'TidepoolError' && typeof (e as { code?: unknown }).code === 'string');
  return tidepool && (code === undefined || (e as TidepoolError).code === code);
}
