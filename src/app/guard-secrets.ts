/** Refuses credentials on explicit writes and redacts them from automatic capture (DESIGN §10). */
import { TidepoolError } from '../core/errors.js';
import { describeSecretKinds, findSecrets, redactSecrets } from '../script/secret-scan.js';

/** Throws `secret_refused` naming the kind of secret when any of `texts` holds a credential. */
export function refuseSecrets(field: string, ...texts: Array<string | undefined | null>): void {
  for (const t of texts) {
    if (!t) continue;
    const found = findSecrets(t);
    if (found.length > 0) {
      throw new TidepoolError(
        'secret_refused',
        `${field} contains ${describeSecretKinds(found)}; credentials are never stored. Store a reference instead ` +
          `(e.g. "the deploy key is in the team vault under prod/deploy").`,
        { field, details: { kinds: [...new Set(found.map((f) => f.kind))] } },
      );
    }
  }
}

/** Replaces credentials in captured text with `[secret:<kind>]` placeholders; returns how many were replaced. */
export function redact(text: string): { text: string; count: number } {
  const r = redactSecrets(text);
  return { text: r.text, count: r.findings.length };
}
