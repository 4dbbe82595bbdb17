/**
 * Imported by pg-driver.ts just before node-postgres, for its load only. At load, node-postgres asks whether it runs
 * in a Cloudflare Worker: where `navigator` is missing (Node 20; Node 21 and later define one) it builds a `Response`
 * to find out, which loads Node's fetch implementation (undici): ~37 ms of every PostgreSQL process's start, and a hook
 * starts one per prompt. A `navigator` saying Node.js answers the probe instead; pg-driver.ts removes it once
 * node-postgres is loaded, so nothing else in the process sees it.
 */
const g = globalThis as { navigator?: unknown };

/** Whether this module defined `navigator` (pg-driver.ts deletes it then). */
export const navigatorForProbe = g.navigator === undefined;
if (navigatorForProbe) g.navigator = { userAgent: 'Node.js' };
