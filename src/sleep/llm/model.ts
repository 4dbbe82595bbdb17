/** The port through which every sleep step asks a language model: one request in, text and token counts out. */

/** One chat message sent to a model; the system prompt travels separately. */
export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What a sleep step asks a model. */
export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  /** Upper bound on the answer's length, in tokens. */
  maxTokens: number;
  temperature?: number;
  /** Ask the provider for a JSON-only answer where it supports that (OpenAI `response_format`). */
  json?: boolean;
  /**
   * The sleep step asking (`solidify`, `librarian` …). Providers ignore it; the scripted model keys its canned
   * answers by it and the agent model shows it in the work packet.
   */
  step?: string;
  /**
   * Says why an answer would be refused (the caller's schema check), or null when it would be taken. Providers
   * ignore it; the agent model uses it to tell the agent the truth about its submission at once.
   */
  check?: (text: string) => string | null;
}

/** A model's answer and what it cost. */
export interface ModelResponse {
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those the provider served from its prompt cache (counted apart; billed cheaper). */
  cachedInputTokens?: number;
}

/**
 * A language model that can answer one request. Implementations: OpenAI-compatible endpoints, Anthropic, MCP
 * sampling, the agent itself, and a scripted model for tests and replay. Failures (network, HTTP 5xx after the
 * SDK's own retries) are thrown; callers such as `askStructured` turn them into a reported skip.
 */
export interface Model {
  /** A stable label for logs and the night's report, e.g. `openai:gpt-4o-mini`. */
  readonly name: string;
  complete(req: ModelRequest): Promise<ModelResponse>;
}
