/** Knowledge entries and their links. */
import type {
  Evidence,
  Knowledge,
  KnowledgeKind,
  KnowledgeLink,
  KnowledgeStatus,
  LinkType,
} from '../../core/types.js';
import type { IndexText } from './search.js';

/** A new knowledge row. */
export interface NewKnowledge {
  kind: KnowledgeKind;
  key: string | null;
  subject: string | null;
  content: string;
  status: KnowledgeStatus;
  occurrences: number;
  strength: number;
  importance: number;
  durable: boolean;
  tags: string[];
  evidence: Evidence;
  source: string;
  validFrom: number | null;
  validTo: number | null;
  createdAt: number;
  meta: Record<string, unknown>;
  embedPending: boolean;
  index: IndexText;
}

/** Knowledge entries and their links. */
export interface KnowledgeStore {
  insert(space: string, row: NewKnowledge): Promise<number>;
  get(space: string, id: number): Promise<Knowledge | undefined>;
  getMany(space: string, ids: readonly number[]): Promise<Knowledge[]>;
  /** The live (not superseded or forgotten) entry with `key`. Inside a transaction on PostgreSQL it also holds the key until commit, so writers of one key take turns. */
  getLiveByKey(space: string, key: string): Promise<Knowledge | undefined>;
  /** Ids of every version (live and superseded) of the entry with `key`. */
  idsByKey(space: string, key: string): Promise<number[]>;
  /** The live entries whose key starts with `prefix` (case-sensitive), most recently updated first. */
  listLiveByKeyPrefix(
    space: string,
    prefix: string,
    page: { limit: number; offset?: number },
  ): Promise<Knowledge[]>;
  /** The keys of every live entry whose key starts with `prefix`, in key order. */
  liveKeysWithPrefix(space: string, prefix: string): Promise<string[]>;
  list(
    space: string,
    q: {
      kinds?: readonly KnowledgeKind[];
      statuses?: readonly KnowledgeStatus[];
      subject?: string;
      limit: number;
      offset?: number;
    },
  ): Promise<Knowledge[]>;
  /** Marks `id` superseded by `by` and closes its validity interval at `at`. */
  supersede(space: string, id: number, by: number, at: number): Promise<void>;
  setStatus(space: string, ids: readonly number[], status: KnowledgeStatus, at: number): Promise<void>;
  /** Adds `step` to strength (capped at 1) and stamps the reinforcement time. */
  reinforce(space: string, ids: readonly number[], step: number, at: number): Promise<void>;
  update(
    space: string,
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
  link(space: string, fromId: number, toId: number, type: LinkType, at: number): Promise<boolean>;
  links(space: string, id: number): Promise<KnowledgeLink[]>;
  delete(space: string, ids: readonly number[]): Promise<number>;
  count(space: string, statuses?: readonly KnowledgeStatus[]): Promise<number>;
  /** Ids of the space's entries (any status) whose content is exactly one of `contents`. */
  idsWithContent(space: string, contents: readonly string[]): Promise<number[]>;
  /** Gives a knowledge entry its key (a reviewed entry taking over the key of the one it replaces). */
  setKey(space: string, id: number, key: string | null, at: number): Promise<void>;
  /** Ids of rows whose text contains `needle` as written (content), archive included; LIKE-matched, so callers confirm each. */
  idsContaining(space: string, needle: string, limit: number): Promise<number[]>;
}
