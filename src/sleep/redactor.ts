/** Placeholders for personal data on the way to a model and back, with the space's map persisted between nights (DESIGN §10). */

import { PlaceholderMap, pseudonymize, type PiiKind } from '../script/pii-scan.js';
import { redactSecrets } from '../script/secret-scan.js';
import type { Store } from '../store/port.js';

/** `job_state` key of the space's placeholder map and PII-watch list. */
export const PII_STATE_KEY = 'sleep:pii';

/** What is persisted: the map's entries and the names the PII night watch added. */
export interface PiiState {
  entries: Array<{ placeholder: string; kind: PiiKind; value: string }>;
  watched: string[];
}

function isState(v: unknown): v is PiiState {
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as PiiState).entries) &&
    Array.isArray((v as PiiState).watched)
  );
}

/**
 * Redacts text for a model: secrets first (`[secret:<kind>]`), then personal data by placeholders from the space's
 * map, so one person keeps one placeholder across nights. Names are `config.knownPersons` plus the names the PII
 * night watch found (never the agent's own name, which is not personal data of a third party). `restore` turns
 * every known placeholder in a model's answer back into its value: the stored memory holds real values, so it still
 * knows who is who, and no placeholder is ever shown to the user or the agent (docs/sleep.md, "Personal data").
 */
export class Redactor {
  #map: PlaceholderMap;
  #watched: string[];
  #knownPersons: readonly string[];
  #saved: string;

  private constructor(state: PiiState, knownPersons: readonly string[]) {
    this.#map = PlaceholderMap.fromEntries(state.entries);
    this.#watched = [...state.watched];
    this.#knownPersons = knownPersons;
    this.#saved = JSON.stringify(state);
  }

  /** Loads the space's persisted map (an empty one on the first night). */
  static async load(store: Store, space: string, knownPersons: readonly string[]): Promise<Redactor> {
    const v = await store.forSpace(space).state.get(PII_STATE_KEY);
    return new Redactor(isState(v) ? v : { entries: [], watched: [] }, knownPersons);
  }

  /** A throw-away copy (for estimating prompt sizes without allocating placeholders in the real map). */
  scratch(): Redactor {
    return new Redactor(this.state(), this.#knownPersons);
  }

  /** Text with secrets and personal data replaced. */
  redact(text: string): string {
    const persons = [...this.#knownPersons, ...this.#watched];
    return pseudonymize(redactSecrets(text).text, { knownPersons: persons }, this.#map).text;
  }

  /** A model's text with every known placeholder turned back into its value. */
  restore(text: string): string {
    return this.#map.restore(text);
  }

  /** Every placeholder this space has handed out, with its value (for mapping stored placeholders back). */
  entries(): ReadonlyArray<{ placeholder: string; kind: PiiKind; value: string }> {
    return this.#map.entries();
  }

  /** Adds names found by the PII night watch; returns each name's placeholder. */
  watch(names: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const name of names) {
      if (!this.#watched.some((w) => w.toLowerCase() === name.toLowerCase())) this.#watched.push(name);
      out.set(name, this.#map.placeholderFor('person', name));
    }
    return out;
  }

  /** Names the night watch added so far. */
  watched(): readonly string[] {
    return this.#watched;
  }

  /** The persistable state. */
  state(): PiiState {
    return { entries: this.#map.entries(), watched: [...this.#watched] };
  }

  /** Writes the state when it changed since the last save (call inside the unit's transaction). */
  async save(tx: Store, space: string, at: number): Promise<void> {
    const state = this.state();
    const json = JSON.stringify(state);
    if (json === this.#saved) return;
    await tx.forSpace(space).state.put(PII_STATE_KEY, state, at);
    this.#saved = json;
  }
}
