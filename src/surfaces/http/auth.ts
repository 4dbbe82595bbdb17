/**
 * Access control of the HTTP server (DESIGN §10): bearer tokens per space and scope, a per-token rate limit and
 * the request-size limit. Without a token a loopback server acts as its own space with every right.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Tidepool } from '../../app/tidepool.js';
import { scopeAllows, type TokenScope } from '../../app/tokens.js';
import { errorJson } from './error-handler.js';

/** Who is calling: the space they see and what they may do there. */
export interface Principal {
  space: string;
  scope: TokenScope;
  /** Null for the tokenless loopback caller. */
  tokenId: number | null;
  /** The memory bound to the principal's space. */
  memory: Tidepool;
}

/** Access options of a server. */
export interface AccessOptions {
  memory: Tidepool;
  /** True when the server listens beyond loopback: every request needs a token. */
  tokensRequired: boolean;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
}

// Verified secrets are remembered briefly so a busy client does not cost a lookup and a write per request; a
// revocation takes effect within this time.
const VERIFY_TTL_MS = 5_000;

/** The Hono environment of every route behind `accessControl`: the caller, set once per request (`c.var.principal`). */
export interface HttpEnv {
  Variables: { principal: Principal };
}

/** Returns a 403 response when the caller lacks `scope`, else undefined. */
export function denyUnless(c: Context<HttpEnv>, scope: TokenScope): Response | undefined {
  const p = c.var.principal;
  if (scopeAllows(p.scope, scope)) return undefined;
  return errorJson(c, 'forbidden', `this token has scope ${p.scope}; ${scope} is needed`);
}

/** Route middleware: a caller without `scope` gets 403 before its input is read or checked. */
export function requireScope(scope: TokenScope): MiddlewareHandler<HttpEnv> {
  return async (c, next) => denyUnless(c, scope) ?? next();
}

/** Request body limit with the API's error shape. */
export function sizeLimit(o: Pick<AccessOptions, 'bodyLimitBytes'>): MiddlewareHandler {
  return bodyLimit({ maxSize: o.bodyLimitBytes, onError: (c) => errorJson(c, 'too_large', `request body over ${o.bodyLimitBytes} bytes`) });
}

/** Token bucket per key (a token id, or the address of a caller with a bad token): `perMinute` requests, refilled continuously. */
class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #perMinute: number;
  constructor(perMinute: number) {
    this.#perMinute = perMinute;
  }
  /** Milliseconds to wait, or 0 when the request may pass. */
  take(id: string, now: number): number {
    const b = this.#buckets.get(id) ?? { tokens: this.#perMinute, at: now };
    // Full buckets carry no information: drop them when the map grows (many addresses, many tokens).
    if (this.#buckets.size > 50_000) for (const [k, v] of this.#buckets) if (v.tokens + ((now - v.at) * this.#perMinute) / 60_000 >= this.#perMinute) this.#buckets.delete(k);
    b.tokens = Math.min(this.#perMinute, b.tokens + ((now - b.at) * this.#perMinute) / 60_000);
    b.at = now;
    this.#buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) * 60_000) / this.#perMinute);
  }
}

/** The client's address (Node server), or one shared bucket when the adapter does not tell it. */
function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return `bad:${env?.incoming?.socket?.remoteAddress ?? 'unknown'}`;
}

/** Resolves the caller of every request it guards; refuses a missing, unknown or revoked token and an exhausted rate. */
export function accessControl(o: AccessOptions): MiddlewareHandler<HttpEnv> {
  const limiter = new RateLimiter(o.rateLimitPerMinute);
  // Bad tokens (unknown, revoked, malformed) draw on a bucket per client address, so guessing secrets is paced;
  // valid tokens never draw on it, so a flood from one address slows no one else.
  const badLimiter = new RateLimiter(o.rateLimitPerMinute);
  const challenge = { 'WWW-Authenticate': 'Bearer realm="tidepool"' };
  const refuseBad = (c: Context, now: number, message: string) => {
    const wait = badLimiter.take(clientAddress(c), now);
    if (wait > 0) return errorJson(c, 'rate_limited', `too many bad tokens from this address; retry in ${wait} ms`, undefined, { 'Retry-After': String(Math.ceil(wait / 1000)) });
    return errorJson(c, 'unauthorized', message, undefined, challenge);
  };
  const cache = new Map<string, { principal: Principal | undefined; until: number }>();
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) {
      if (o.tokensRequired) return errorJson(c, 'unauthorized', 'send a token: Authorization: Bearer <token> (tidepool token create)', undefined, challenge);
      c.set('principal', { space: o.memory.space, scope: 'admin', tokenId: null, memory: o.memory });
      return next();
    }
    const now = Date.now();
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return refuseBad(c, now, 'the Authorization header must be "Bearer <token>"');
    const secret = m[1]!;
    let hit = cache.get(secret);
    if (!hit || hit.until < now) {
      const row = await o.memory.verifyToken(secret);
      const principal = row ? { space: row.space, scope: row.scope, tokenId: row.id, memory: o.memory.withSpace(row.space) } : undefined;
      hit = { principal, until: now + VERIFY_TTL_MS };
      if (cache.size > 10_000) cache.clear();
      cache.set(secret, hit);
    }
    if (!hit.principal) return refuseBad(c, now, 'unknown or revoked token');
    const wait = limiter.take(`token:${hit.principal.tokenId!}`, now);
    if (wait > 0) return errorJson(c, 'rate_limited', `rate limit of ${o.rateLimitPerMinute} requests a minute reached; retry in ${wait} ms`, undefined, { 'Retry-After': String(Math.ceil(wait / 1000)) });
    c.set('principal', hit.principal);
    return next();
  };
}
