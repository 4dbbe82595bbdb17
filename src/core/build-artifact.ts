/** Files that a build script writes beside the compiled core modules from an installed package (scripts/*.mjs). */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * `dist/core/NAME.json` (its meta, holding the version of `pkg` it was made from) and the path of `NAME.txt`: beside
 * this module, or from the sources (tests, tsx) in the build's copy. Null where the build did not write them, or
 * `pkg` is not installed or has another version now (what was made from it no longer matches it).
 */
export function builtArtifact<M extends { version: string }>(name: string, pkg: string): { meta: M; txt: string } | null {
  const require = createRequire(import.meta.url);
  let version: string;
  try {
    version = (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
  for (const dir of ['./', '../../dist/core/']) {
    let meta: M;
    try {
      meta = require(`${dir}${name}.json`) as M;
    } catch {
      continue; // not built there
    }
    if (meta.version !== version) return null;
    const txt = fileURLToPath(new URL(`${dir}${name}.txt`, import.meta.url));
    return existsSync(txt) ? { meta, txt } : null;
  }
  return null;
}
