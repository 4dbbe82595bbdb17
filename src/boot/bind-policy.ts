/** Who may bind where: loopback needs nothing, any other address needs API tokens (DESIGN §10). */
import type { Tidepool } from '../app/tidepool.js';
import { TidepoolError } from '../core/errors.js';

/** True for a loopback address or name. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Throws `forbidden` when `host` is not loopback and no live API token exists. */
export async function assertBindAllowed(memory: Tidepool, host: string): Promise<void> {
  if (isLoopback(host) || (await memory.activeTokenCount()) > 0) return;
  throw new TidepoolError(
    'forbidden',
    `refusing to listen on ${host}: no API tokens exist, and beyond loopback every request needs one. ` +
      'Create one with `tidepool token create --space <space> --scope read|write|admin`, or serve on 127.0.0.1 (e.g. through an SSH tunnel).',
    { field: 'host' },
  );
}
