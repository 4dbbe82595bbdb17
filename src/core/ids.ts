/** Public item ids: a layer letter and the row number (`e12` episode, `n3` narrative, `k7` knowledge). */
import { TidepoolError } from './errors.js';
import type { Layer } from './types.js';

const PREFIX: Record<Layer, string> = { episode: 'e', narrative: 'n', knowledge: 'k' };
const LAYER_OF: Record<string, Layer> = { e: 'episode', n: 'narrative', k: 'knowledge' };

/** Formats a layer and row id as a public id. */
export function formatId(layer: Layer, id: number): string {
  return `${PREFIX[layer]}${id}`;
}

/** Parses a public id; throws `invalid_input` naming `field` when it is malformed. */
export function parseId(value: string, field = 'id'): { layer: Layer; id: number } {
  const m = /^([enk])(\d{1,15})$/.exec(value.trim());
  const layer = m ? LAYER_OF[m[1]!] : undefined;
  if (!m || !layer) {
    throw new TidepoolError('invalid_input', `${field} must look like e12, n3 or k7 (layer letter + number), got "${value}"`, {
      field,
    });
  }
  return { layer, id: Number(m[2]) };
}
