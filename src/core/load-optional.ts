/** Loads an optional peer dependency (a database driver, a model provider's SDK), naming the package to install when it is missing. */
import { TidepoolError } from './errors.js';

/** True when `e` says that `pkg` itself (not something inside it) could not be found. */
function isMissing(e: unknown, pkg: string): boolean {
  const code = (e as { code?: string } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((e as Error).message);
  return message.includes(`'${pkg}'`) || message.includes(`'${pkg}/`) || message.includes(`/node_modules/${pkg}/`);
}

/**
 * Runs `load` (an `import()` of the package or of a module that imports it) and turns "cannot find package" into an
 * `unavailable` error that says which package to install and what needs it.
 * @example const { default: pg } = await loadOptional('pg', 'a postgres:// database', () => import('pg'))
 */
export async function loadOptional<T>(pkg: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (!isMissing(e, pkg)) throw e;
    throw new TidepoolError('unavailable', `${purpose} needs the optional package ${pkg}: install it beside tidepool-memory (npm install ${pkg})`, {
      cause: e,
      details: { package: pkg },
    });
  }
}
