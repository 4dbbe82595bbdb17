/** The space registry (cross-space). */

/** Spaces. */
export interface SpaceStore {
  ensure(space: string, at: number): Promise<void>;
  exists(space: string): Promise<boolean>;
  list(): Promise<string[]>;
  delete(space: string): Promise<void>;
}
