// Child-process entry of the HTTP benchmark: runs autocannon against the server and sends its result back, so the
// load generator's own work (building requests, parsing responses) is not done on the server's main thread.
import { createRequire } from 'node:module';

/**
 * What the parent sends: autocannon's options (JSON only), and `ingestTurns` to send `POST /v1/ingest` with a new
 * turn per request (a body made here: functions cannot cross the process boundary).
 */
export type CannonRequest = Record<string, unknown> & { ingestTurns?: boolean };

const autocannon = createRequire(import.meta.url)('autocannon') as (o: CannonRequest) => Promise<unknown>;

/** One turn per request, each new, spread over 50 sessions. */
function ingestRequests(): Array<Record<string, unknown>> {
  let i = 0;
  const setupRequest = (r: Record<string, unknown>) => {
    i++;
    return { ...r, path: '/v1/ingest', body: JSON.stringify({ content: `load turn ${i} about the deploy pipeline`, session: `load-${i % 50}` }) };
  };
  return [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest }];
}

process.once('message', ({ ingestTurns, ...o }: CannonRequest) => {
  autocannon(ingestTurns ? { ...o, requests: ingestRequests() } : o).then(
    (r) => process.send?.(r, undefined, {}, () => process.exit(0)),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
});
