/** Profiles, self-concept, snapshots and threads. */
import type {
  HistoryEntry,
  Profile,
  ProfileType,
  SelfConcept,
  SelfConceptField,
  SelfImageField,
  Snapshot,
  Thread,
  ThreadStatus,
} from '../../core/types.js';

export interface IdentityStore {
  upsertProfile(p: {
    entity: string;
    ptype: ProfileType;
    content: string;
    pinned?: boolean;
    at: number;
  }): Promise<{ id: number; previous?: string }>;
  profiles(entity?: string): Promise<Profile[]>;
  profileHistory(entity: string, ptype: ProfileType): Promise<HistoryEntry[]>;
  upsertSelfConcept(field: SelfConceptField | SelfImageField, content: string, at: number): Promise<{ previous?: string }>;
  selfConcept(): Promise<SelfConcept[]>;
  selfConceptHistory(field: SelfConceptField): Promise<HistoryEntry[]>;
  addSnapshot(content: string, at: number): Promise<number>;
  snapshots(limit: number): Promise<Snapshot[]>;
  insertThread(t: Omit<Thread, 'id' | 'updatedAt' | 'exploredAt'>): Promise<number>;
  updateThread(id: number, patch: Partial<Omit<Thread, 'id' | 'createdAt'>>): Promise<boolean>;
  threads(status: ThreadStatus | 'all', limit: number): Promise<Thread[]>;
}
