/** The names `import --format` takes, in a module of their own so that the CLI lists them without loading the parsers. */
import { IMPORT_FORMATS } from '../script/import-formats/imported-turn.js';

/** The formats `--format` takes. */
export const IMPORT_FORMAT_NAMES = ['auto', ...IMPORT_FORMATS] as const;
