/**
 * Times the statements node-postgres sends in this process, for issue 20's profiles (`pg-ingest-profile.ts`,
 * `pg-query-profile.ts`): `start(text)` is called as a statement is sent, and the function it returns with the
 * statement's wall time once its promise settles. Both prototypes are wrapped: a pool's `query` (the work run after a
 * commit, such as the GIN merge; a search's statements) calls its client's with a callback, which is not timed again.
 * Not part of the test suite.
 */
import pg from 'pg';

export function timePgStatements(start: (text: string) => (ms: number) => void): void {
  for (const proto of [pg.Client.prototype, pg.Pool.prototype]) {
    const query = proto.query as (...a: unknown[]) => unknown;
    (proto as { query: unknown }).query = function (this: unknown, ...a: unknown[]) {
      const text = typeof a[0] === 'string' ? a[0] : ((a[0] as { text?: string })?.text ?? '?');
      const t0 = performance.now();
      const out = query.apply(this, a);
      if (!(out instanceof Promise)) return out;
      const done = start(text);
      return out.finally(() => done(performance.now() - t0));
    };
  }
}
