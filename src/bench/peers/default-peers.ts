// The peers every benchmark run measures beside Tidepool, in the order the report lists them.
import type { BenchEmbedder, RetrievalSystem } from '../retrieval-system.js';
import type { ScaleSystemFactory } from '../scale/scale-system.js';
import { BigramBm25Peer } from './bigram-bm25-peer.js';
import { McpMemoryPeer } from './mcp-memory-peer.js';
import { miniSearchScaleFactory } from './minisearch-scale-peer.js';
import { MiniSearchPeer } from './minisearch-peer.js';
import { oramaHybridScaleFactory, oramaScaleFactory } from './orama-scale-peer.js';
import { OramaPeer } from './orama-peer.js';

/**
 * minisearch (BM25), character-bigram BM25 (the simplest sound method for Chinese), Orama full-text, Orama hybrid when an embedder is given, and the MCP memory
 * server in both query modes (its search is a substring filter: `verbatim` asks the question as
 * typed, `keywords` one call per keyword). Set `mcp: false` to leave out the server (spawns Node).
 */
export function defaultRetrievalPeers(options: { embedder?: BenchEmbedder; mcp?: boolean } = {}): RetrievalSystem[] {
  const peers: RetrievalSystem[] = [new MiniSearchPeer(), new BigramBm25Peer(), new OramaPeer()];
  if (options.embedder) peers.push(new OramaPeer({ embedder: options.embedder }));
  if (options.mcp ?? true) peers.push(new McpMemoryPeer({ mode: 'verbatim' }), new McpMemoryPeer({ mode: 'keywords' }));
  return peers;
}

/** minisearch, Orama full-text and Orama with 384-d vectors (lexical + hybrid latency). */
export function defaultScalePeers(): ScaleSystemFactory[] {
  return [miniSearchScaleFactory, oramaScaleFactory, oramaHybridScaleFactory];
}
