/** Profiles, self-concept, snapshots and threads. */
import type {
  HistoryEntry,
  Profile,
  ProfileType,
  SelfConcept,
  SelfConceptField,
  Snapshot,
  Thread,
  ThreadStatus,
} from '../../core/types.js';

export interface IdentityStore {
  upsertProfile(
    space: string,
    p: { entity: string; ptype: ProfileType; content: string; pinned?: boolean; at: number },
  ): Promise<{ id: number; previous?: string }>;
  profiles(space: string, entity?: string): Promise<Profile[]>;
  profileHistory(space: string, entity: string, ptype: ProfileType): Promise<HistoryEntry[]>;
  upsertSelfConcept(
    space: string,
    field: SelfConceptField,
    content: string,
    at: number,
  ): Promise<{ previous?: string }>;
  selfConcept(space: string): Promise<SelfConcept[]>;
  selfConceptHistory(space: string, field: SelfConceptField): Promise<HistoryEntry[]>;
  addSnapshot(space: string, content: string, at: number): Promise<number>;
  snapshots(space: string, limit: number): Promise<Snapshot[]>;
  insertThread(space: string, t: Omit<Thread, 'id' | 'updatedAt' | 'exploredAt'>): Promise<number>;
  updateThread(space: string, id: number, patch: Partial<Omit<Thread, 'id' | 'createdAt'>>): Promise<boolean>;
  threads(space: string, status: ThreadStatus | 'all', limit: number): Promise<Thread[]>;
}
