/** A space's lexical search: the engine's search index with the space bound. */
import type { Layer } from '../../core/types.js';
import type { LexicalOptions, SearchIndex, SpaceSearch } from '../port.js';

export class ScopedSearch implements SpaceSearch {
  readonly #index: SearchIndex;
  readonly #space: string;
  constructor(index: SearchIndex, space: string) {
    this.#index = index;
    this.#space = space;
  }

  lexical(layer: Layer, terms: readonly string[], opts: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    return this.#index.lexical(this.#space, layer, terms, opts);
  }

  substring(layer: Layer, needle: string, opts: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    return this.#index.substring(this.#space, layer, needle, opts);
  }
}
