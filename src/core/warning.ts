/** The kinds of warning: a failure that did not stop the work, said in the log and kept for `doctor` (app/warnings.ts). */

/** What went wrong without failing the call. */
export type WarningKind =
  /** Embedding written rows failed; they stay marked `embed_pending` for later. */
  | 'embed_failed'
  /** A query could not be embedded; recall, injection or the night went on with words only. */
  | 'query_embed_failed'
  /** A stored JSON column did not parse; the reader used an empty value. */
  | 'corrupt_column';

/** Says a warning: given to the layers below app (retrieval, sleep), which cannot log or keep it themselves. */
export type Warn = (kind: WarningKind, message: string) => void;
