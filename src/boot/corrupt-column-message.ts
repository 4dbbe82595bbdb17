/** The words of a `corrupt_column` warning, the same whichever thread read the row. */
import type { CorruptColumn } from '../store/sql/sql-util.js';

/** `corrupt JSON in episodes.meta of row 12 (space s): Unexpected token …; read as empty`. */
export function corruptColumnMessage(c: CorruptColumn): string {
  const row = c.id === null ? '' : ` of row ${c.id}`;
  const where = c.space === null ? '' : ` (space ${c.space})`;
  return `corrupt JSON in ${c.table}.${c.column}${row}${where}: ${c.error}; read as empty`;
}
