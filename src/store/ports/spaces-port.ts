/** The space registry (cross-space). */

/** Spaces. */
export interface SpaceStore {
  ensure(space: string, at: number): Promise<void>;
  exists(space: string): Promise<boolean>;
  /** The registered spaces. */
  list(): Promise<string[]>;
  /**
   * Every space holding an episode, narrative or knowledge item, registered or not (a library caller may write a
   * space without registering it); reads the whole item tables, so for migrations, not for every request.
   */
  holdingItems(): Promise<string[]>;
  delete(space: string): Promise<void>;
}
