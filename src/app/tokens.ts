/** API tokens: created once (the secret is shown only then), stored as a SHA-256 hash, checked on every HTTP request. */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { label, parseInput, spaceName } from '../core/schemas.js';
import type { ApiTokenRow } from '../store/port.js';
import type { AppContext } from './app-context.js';

/** What a token may do: read < write < admin (admin also erases its space). */
export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
/** A token scope. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** A token as listed (never its secret). */
export type ApiToken = ApiTokenRow;

/** `token create` input. */
export const tokenCreateInput = z.object({ space: spaceName, scope: z.enum(TOKEN_SCOPES), label: label.optional() });

// Secrets carry a recognisable prefix so secret scanners (and our own detectors) can spot a leaked one.
const PREFIX = 'tp_';

/** SHA-256 hex of a secret: what the database keeps. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** True when `held` covers `needed` (admin ⊃ write ⊃ read). */
export function scopeAllows(held: TokenScope, needed: TokenScope): boolean {
  return TOKEN_SCOPES.indexOf(held) >= TOKEN_SCOPES.indexOf(needed);
}

/**
 * Creates a token for one space and scope; returns the secret, which is not stored and cannot be shown again.
 * @example const { token } = await createToken(ctx, { space: 'team', scope: 'read' })
 */
export async function createToken(ctx: AppContext, raw: unknown): Promise<{ id: number; token: string; space: string; scope: TokenScope }> {
  const input = parseInput(tokenCreateInput, raw);
  const token = PREFIX + randomBytes(32).toString('base64url');
  const id = await ctx.store.tokens.insert({ space: input.space, scope: input.scope, hash: hashToken(token), label: input.label ?? null, at: ctx.clock.now() });
  return { id, token, space: input.space, scope: input.scope };
}

/** Tokens (without secrets), newest first; of one space when given. */
export function listTokens(ctx: AppContext, space?: string): Promise<ApiToken[]> {
  return ctx.store.tokens.list(space);
}

/** Revokes a token by id; `not_found` when no live token has it. */
export async function revokeToken(ctx: AppContext, id: number): Promise<void> {
  if (!(await ctx.store.tokens.revoke(id, ctx.clock.now()))) throw new TidepoolError('not_found', `no live token with id ${id}`, { field: 'id' });
}

/** Live tokens in the database (a non-loopback bind needs at least one). */
export function activeTokenCount(ctx: AppContext): Promise<number> {
  return ctx.store.tokens.activeCount();
}

/** The live token a secret belongs to, or undefined (unknown or revoked); stamps its last use. */
export async function verifyToken(ctx: AppContext, secret: string): Promise<ApiToken | undefined> {
  if (!secret.startsWith(PREFIX) || secret.length > 200) return undefined;
  const row = await ctx.store.tokens.byHash(hashToken(secret));
  if (!row || row.revokedAt !== null) return undefined;
  await ctx.store.tokens.touch(row.id, ctx.clock.now());
  return row;
}
