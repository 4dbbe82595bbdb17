/** Knowledge entries and their links. */
import type { Knowledge, KnowledgeKind, KnowledgeLink, KnowledgeStatus, LinkType } from '../../core/types.js';
import type { IndexText } from './search-port.js';

/** A new knowledge row: a `Knowledge` entry less what the store gives it or later writes change, with its index text. */
export type NewKnowledge = Omit<
  Knowledge,
  'id' | 'space' | 'lastReinforcedAt' | 'updatedAt' | 'supersededBy'
> & {
  embedPending: boolean;
  index: IndexText;
};

/** One reinforcement: `step` added to each entry of `ids` at `at`. */
export interface Reinforcement {
  ids: readonly number[];
  step: number;
  at: number;
}

/** Knowledge entries and their links. */
export interface KnowledgeStore {
  insert(row: NewKnowledge): Promise<number>;
  get(id: number): Promise<Knowledge | undefined>;
  getMany(ids: readonly number[]): Promise<Knowledge[]>;
  /** The live (not superseded or forgotten) entry with `key`. Inside a transaction on PostgreSQL it also holds the key until commit, so writers of one key take turns. */
  getLiveByKey(key: string): Promise<Knowledge | undefined>;
  /** Ids of every version (live and superseded) of the entry with `key`. */
  idsByKey(key: string): Promise<number[]>;
  /** The live entries whose key starts with `prefix` (case-sensitive), most recently updated first. */
  listLiveByKeyPrefix(prefix: string, page: { limit: number; offset?: number }): Promise<Knowledge[]>;
  /** The keys of every live entry whose key starts with `prefix`, in key order. */
  liveKeysWithPrefix(prefix: string): Promise<string[]>;
  list(q: {
    kinds?: readonly KnowledgeKind[];
    statuses?: readonly KnowledgeStatus[];
    subject?: string;
    limit: number;
    offset?: number;
  }): Promise<Knowledge[]>;
  /** Marks `id` superseded by `by` and closes its validity interval at `at`. */
  supersede(id: number, by: number, at: number): Promise<void>;
  setStatus(ids: readonly number[], status: KnowledgeStatus, at: number): Promise<void>;
  /**
   * Applies the reinforcements in order: each adds its `step` to the strength of its entries (decayed to its `at`
   * first, capped at 1) and stamps its time. Every entry named is locked before any is read, in id order.
   */
  reinforce(hits: readonly Reinforcement[]): Promise<void>;
  update(
    id: number,
    patch: Partial<
      Pick<
        Knowledge,
        'content' | 'occurrences' | 'strength' | 'evidence' | 'tags' | 'validFrom' | 'validTo' | 'meta'
      >
    >,
    index?: IndexText,
    at?: number,
  ): Promise<void>;
  link(fromId: number, toId: number, type: LinkType, at: number): Promise<boolean>;
  links(id: number): Promise<KnowledgeLink[]>;
  delete(ids: readonly number[]): Promise<number>;
  count(statuses?: readonly KnowledgeStatus[]): Promise<number>;
  /** Ids of the space's entries (any status) whose content is exactly one of `contents`. */
  idsWithContent(contents: readonly string[]): Promise<number[]>;
  /** Gives a knowledge entry its key (a reviewed entry taking over the key of the one it replaces). */
  setKey(id: number, key: string | null, at: number): Promise<void>;
  /** Ids of rows whose text contains `needle` as written (content), archive included; LIKE-matched, so callers confirm each. */
  idsContaining(needle: string, limit: number): Promise<number[]>;
}
