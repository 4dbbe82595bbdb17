/** Test helper: an embedding service on 127.0.0.1 speaking Tideline's local protocol (POST {texts} → {embeddings}). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running mock service: its URL, how many texts it embedded, and how to stop it. */
export interface MockEmbedServer {
  url: string;
  embedded: () => number;
  close(): Promise<void>;
}

/** Starts a service that answers each text with `vectorOf(text)`; configure it as `{ provider: 'tideline', url }`. */
export async function startEmbedServer(vectorOf: (text: string) => number[]): Promise<MockEmbedServer> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const { texts } = JSON.parse(body) as { texts: string[] };
      count += texts.length;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ embeddings: texts.map(vectorOf) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/embed_batch`,
    embedded: () => count,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
