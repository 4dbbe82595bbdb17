/** Composition root of `tidepool serve`: the MCP server over stdio, or Hono on Node serving `/mcp` and `/v1/health`. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveNode, type ServerType } from '@hono/node-server';
import { serveStdio as serveMcpStdio } from '@modelcontextprotocol/server/stdio';
import { TIDEPOOL_VERSION, type Tidepool } from '../app/tidepool.js';
import { scopeAllows } from '../app/tokens.js';
import { assertBindAllowed, isLoopback } from './bind-policy.js';
import type { ServeRunners } from '../surfaces/cli/serve-command.js';
import { createHttpApp } from '../surfaces/http/http-app.js';
import { createMcpServer } from '../surfaces/mcp/create-mcp-server.js';
import { SqlStore } from '../store/sql/sql-store.js';
import { SqliteDriver } from '../store/sqlite/sqlite-driver.js';
import { defaultReaderCount, startReaderPool, type ReaderPool } from './reader-pool.js';

/** Options of an MCP server. */
export interface McpServeOptions {
  toolsets?: string;
  soul?: () => Promise<string | undefined>;
}

export { isLoopback } from './bind-policy.js';

/**
 * Serves MCP on stdin/stdout until stdin ends or the process is told to stop. Toolsets are checked before anything
 * is read, so a bad `--toolsets` fails at once. The SDK picks the protocol generation from the client's first
 * message: `initialize` (2025 revisions) or a 2026-07-28 request; both get a server from the same factory.
 */
export async function serveStdio(memory: Tidepool, o: McpServeOptions): Promise<void> {
  // stdio serves the local user: the working directory is the journal's default workspace. One session per process.
  const session = `mcp-${randomUUID()}`;
  const create = () => createMcpServer(memory, { toolsets: o.toolsets, soul: o.soul, journalHome: process.cwd(), session });
  await (await create()).close();
  const handle = serveMcpStdio(create, { onerror: (e) => memory.warn(`mcp stdio: ${e.message}`) });
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await handle.close();
}

/** A running HTTP server. */
export interface HttpHandle {
  url: string;
  /** Reader threads serving recall (0 when recall runs on the main thread). */
  readers: number;
  /** Resolves once every reader thread has opened the file (recall runs on the main thread until then). */
  readersReady(): Promise<void>;
  /** Recalls the reader threads have answered so far. */
  readerAnswers(): number;
  close(): Promise<void>;
}

/**
 * Starts the HTTP server. A non-loopback host needs API tokens (DESIGN §10): without a live token it is refused;
 * with one, every request must carry a token, which sees only its own space.
 */
export async function startHttpServer(
  served: Tidepool,
  o: McpServeOptions & { host: string; port: number; readers?: number },
): Promise<HttpHandle> {
  const tokensRequired = !isLoopback(o.host);
  await assertBindAllowed(served, o.host);
  const { memory, readers: pool } = startReaders(served, o.readers ?? served.config.http.readers ?? defaultReaderCount());
  // Check toolsets now, not at the first client's initialize.
  await createMcpServer(memory, { toolsets: o.toolsets }).then((s) => s.close());
  const http = createHttpApp({
    memory,
    version: TIDEPOOL_VERSION,
    mcpServer: (session, principal) => {
      // Only the tokenless loopback caller is the local user; a token reaches its own space's registered workspaces.
      const local = principal === undefined || principal.tokenId === null;
      return createMcpServer(principal?.memory ?? memory, {
        toolsets: o.toolsets,
        soul: o.soul,
        session,
        eraseSpace: principal === undefined || scopeAllows(principal.scope, 'admin'),
        ...(local ? { journalHome: process.cwd() } : {}),
      });
    },
    allowedHosts: [...new Set(['127.0.0.1', 'localhost', '::1', '[::1]', o.host.toLowerCase()])],
    tokensRequired,
    rateLimitPerMinute: memory.config.http.rateLimitPerMinute,
    bodyLimitBytes: memory.config.http.bodyLimitBytes,
  });
  // Requests being answered: close waits for them, so that a write in flight is committed and answered, and no
  // handler runs on against a memory its caller closes next.
  const inFlight = new Set<Promise<unknown>>();
  const fetch: typeof http.app.fetch = (...args) => {
    const answer = Promise.resolve(http.app.fetch(...args));
    inFlight.add(answer);
    answer.then(
      () => inFlight.delete(answer),
      () => inFlight.delete(answer),
    );
    return answer;
  };
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serveNode({ fetch, port: o.port, hostname: o.host, autoCleanupIncoming: false }, () => resolve(s));
    s.once('error', reject);
  });
  lingerOverUnreadBodies(server as Server);
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    readers: pool?.size ?? 0,
    readersReady: async () => pool?.ready(),
    readerAnswers: () => pool?.answered ?? 0,
    async close() {
      // No new connections; idle keep-alive sockets go at once, requests being answered get up to CLOSE_GRACE_MS.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as Partial<Server>).closeIdleConnections?.();
      await answered(inFlight, CLOSE_GRACE_MS);
      await http.close();
      // Streams a client left open (SSE GETs, keep-alive sockets) would hold `close` forever.
      (server as Partial<Server>).closeAllConnections?.();
      await closed;
      await pool?.close();
    },
  };
}

/** How long `close` waits for the requests being answered before it ends their connections. */
const CLOSE_GRACE_MS = 10_000;

/** Resolves when every request in `inFlight` (and any that joins meanwhile) is answered, or after `ms`. */
async function answered(inFlight: ReadonlySet<Promise<unknown>>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (inFlight.size > 0 && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())));
    await Promise.race([Promise.allSettled([...inFlight]), late]);
    clearTimeout(timer);
  }
}

/** How long and how much of an unread request body is read and dropped after its answer (nginx lingers 30 s). */
const LINGER_MS = 30_000;
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * An answer sent before its request body was read (a 413 over the body limit, a 401 before an upload) must reach a
 * client that sends its whole body before it reads. Closing the socket while the body still arrives makes the
 * kernel answer with a reset, which drops the answer from the client's receive buffer (@hono/node-server drains for
 * only 500 ms, then destroys the socket: `autoCleanupIncoming` is off for that reason). So the rest of the body is
 * read and dropped — up to {@link LINGER_BYTES} or {@link LINGER_MS}, so a client cannot hold the socket forever.
 */
function lingerOverUnreadBodies(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.once('finish', () => {
      if (req.readableEnded || req.destroyed) return;
      let bytes = 0;
      const stop = () => req.socket.destroy();
      const timer = setTimeout(stop, LINGER_MS).unref();
      // The web stream that fed the app stops reading once the app answered, and its backpressure would pause the
      // request: without reads the socket goes idle and Node's keep-alive timeout destroys it mid-body (a reset).
      req.removeAllListeners('data');
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > LINGER_BYTES) stop();
      });
      req.once('close', () => clearTimeout(timer));
      req.resume();
    });
  });
}

/** Reader threads for recall when the memory is a SQLite file (`:memory:` is one connection's; PostgreSQL has a pool). */
function startReaders(memory: Tidepool, count: number): { memory: Tidepool; readers: ReaderPool | undefined } {
  return memory.withReaderPool(({ store, config, warn }) => {
    if (count === 0 || !(store instanceof SqlStore) || !(store.db instanceof SqliteDriver) || store.db.path === ':memory:') return undefined;
    return startReaderPool({ path: store.db.path, config, store, count, warn });
  });
}

/** What `tidepool serve` runs (injected into the CLI so surfaces never import each other). */
export const serveRunners: ServeRunners = {
  async stdio(memory, o) {
    // The journal's daily tend runs while the server does (SEEDS §2.8).
    const autoTend = memory.startJournalAutoTend();
    // The nightly sleep at sleep.at (02:17 UTC by default) runs while the server does (DESIGN §6).
    const nightly = await memory.scheduleNightlySleep({ onNight: (n) => memory.warn(`sleep ${n.space}: ${n.message}`) });
    try {
      await serveStdio(memory, o);
    } finally {
      autoTend.stop();
      nightly.stop();
    }
  },
  async http(memory, o) {
    const handle = await startHttpServer(memory, o);
    const autoTend = memory.startJournalAutoTend();
    const nightly = await memory.scheduleNightlySleep({ onNight: (n) => memory.warn(`sleep ${n.space}: ${n.message}`) });
    o.onListening(handle.url);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    autoTend.stop();
    nightly.stop();
    await handle.close();
  },
};
