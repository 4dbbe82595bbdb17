/** What a crash-bench writer was told had been stored: the driver keeps each acknowledgement and checks it after every kill round. */

/** Which surface acknowledged a write. */
export type AckVia = 'cli' | 'http' | 'import';

/** One acknowledged write. */
export type Ack =
  /** Turns stored by `record` or `POST /v1/ingest`: each id holds the turn whose text carries `<tag>t<j>`. */
  | { kind: 'turns'; via: AckVia; tag: string; ids: string[] }
  /** A `remember` (CLI, `/v1/remember`, a `/v1/import` line): the knowledge entry and its episode carry the tag. */
  | { kind: 'fact'; via: AckVia; tag: string; id: string; episodeId?: string }
  /** `tidepool import` of a transcript: `n` turns carrying `<tag>t<j>` (the CLI reports counts, not ids). */
  | { kind: 'import'; via: AckVia; tag: string; n: number };

/** A journal tend that exited 0 in `root`: every day of it is now in exactly one place. */
export interface TendAck {
  root: string;
}
