/** Per-space JSON state. */

/** JSON values kept per space under a key in `job_state` (an import's id mapping, the placeholder map). */
export interface StateStore {
  /** A persisted JSON value of the space (e.g. the placeholder map), from `job_state`. */
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown, at: number): Promise<void>;
}
