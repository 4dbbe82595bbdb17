/** An in-memory JournalHost for tests and for library users without a database; state can be shared across instances. */
import type { JournalHost, JournalSection } from './journal-port.js';

/** Everything the in-memory host holds; pass the same state to a new host to simulate a restart. */
export interface MemoryJournalHostState {
  workspaces: Set<string>;
  archive: Map<string, Map<string, string>>;
  sections: Map<string, JournalSection[]>;
  tendState: Map<string, string>;
}

/** Creates empty host state. */
export function emptyJournalHostState(): MemoryJournalHostState {
  return { workspaces: new Set(), archive: new Map(), sections: new Map(), tendState: new Map() };
}

/** JournalHost kept in maps. */
export class MemoryJournalHost implements JournalHost {
  readonly state: MemoryJournalHostState;

  constructor(state: MemoryJournalHostState = emptyJournalHostState()) {
    this.state = state;
  }

  async registerWorkspace(root: string): Promise<void> {
    this.state.workspaces.add(root);
  }

  async listWorkspaces(): Promise<string[]> {
    return [...this.state.workspaces].sort();
  }

  async archiveDay(root: string, date: string, content: string): Promise<void> {
    const days = this.state.archive.get(root) ?? new Map<string, string>();
    days.set(date, content);
    this.state.archive.set(root, days);
  }

  async restoreDay(root: string, date: string): Promise<string | undefined> {
    return this.state.archive.get(root)?.get(date);
  }

  async listArchivedDays(root: string): Promise<string[]> {
    return [...(this.state.archive.get(root)?.keys() ?? [])].sort();
  }

  async indexSections(root: string, sections: readonly JournalSection[]): Promise<void> {
    this.state.sections.set(root, [...sections]);
  }

  async getTendState(root: string): Promise<string | undefined> {
    return this.state.tendState.get(root);
  }

  async setTendState(root: string, day: string): Promise<void> {
    this.state.tendState.set(root, day);
  }
}
