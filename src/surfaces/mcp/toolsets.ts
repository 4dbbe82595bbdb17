/** The toolset registry: adding a toolset is one import line and one entry below. */
import { TidepoolError } from '../../core/errors.js';
import type { Toolset } from './toolset.js';
import { toolset as core } from './toolset-core.js';
import { toolset as tideline } from './toolset-tideline.js';
import { toolset as continuity } from './toolset-continuity.js';
import { toolset as journal } from './toolset-journal.js';
import { toolset as sleep } from './toolset-sleep.js';

/** Every toolset, in the order `--toolsets all` registers them. */
export const TOOLSETS: readonly Toolset[] = [core, tideline, continuity, journal, sleep];

/** The toolsets named by `--toolsets` (comma-separated; `all` = every one; default `core`); unknown names are an error. */
export function resolveToolsets(spec: string | readonly string[] = 'core'): Toolset[] {
  const names = (typeof spec === 'string' ? spec.split(',') : spec).map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) return [core];
  if (names.includes('all')) return [...TOOLSETS];
  const unknown = names.filter((n) => !TOOLSETS.some((t) => t.name === n));
  if (unknown.length > 0) {
    throw new TidepoolError('invalid_input', `toolsets: unknown toolset ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${TOOLSETS.map((t) => t.name).join(', ')}, all`, {
      field: 'toolsets',
    });
  }
  return TOOLSETS.filter((t) => names.includes(t.name));
}
