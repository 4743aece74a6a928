/**
 * The providers a transcript can name in its `meta` line. Each is a profile over one transport:
 * the runtime knows transports (HTTP, WebSocket, stdio); a provider adds its framing rules.
 */
export const providers = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "gemini",
  "ollama",
  "bedrock",
  "cohere",
  "opencode",
  "openai-realtime",
  "jsonrpc-stdio",
  "codex-app-server",
  "codex-exec",
  "claude-code",
] as const;
export type Provider = (typeof providers)[number];

/** How the app reaches the provider: HTTP requests answered in order, WebSocket sessions, or a child process on stdio. */
export type Transport = "http" | "websocket" | "stdio";

/** The transport of every provider; typed exhaustively so a new provider must choose one. */
export const providerTransport = {
  "openai-chat": "http",
  "openai-responses": "http",
  "anthropic-messages": "http",
  gemini: "http",
  ollama: "http",
  bedrock: "http",
  cohere: "http",
  opencode: "http",
  "openai-realtime": "websocket",
  "jsonrpc-stdio": "stdio",
  "codex-app-server": "stdio",
  "codex-exec": "stdio",
  "claude-code": "stdio",
} as const satisfies { readonly [P in Provider]: Transport };

/** A provider the app reaches over HTTP: `replay-agent serve` replays it and `replay-agent record` records it. */
export type HttpProvider = { [P in Provider]: (typeof providerTransport)[P] extends "http" ? P : never }[Provider];

/** A provider the app talks to over WebSocket sessions, served by `replay-agent serve` beside HTTP. */
export type WebSocketProvider = { [P in Provider]: (typeof providerTransport)[P] extends "websocket" ? P : never }[Provider];

/** A provider the app spawns as a child process: `replay-agent stdio` replays it. */
export type StdioProvider = { [P in Provider]: (typeof providerTransport)[P] extends "stdio" ? P : never }[Provider];

/** A provider `replay-agent serve` replays: its app reaches it over the network (HTTP or WebSocket). */
export type ServedProvider = HttpProvider | WebSocketProvider;

export const isHttpProvider = (provider: Provider): provider is HttpProvider => providerTransport[provider] === "http";
export const isWebSocketProvider = (provider: Provider): provider is WebSocketProvider => providerTransport[provider] === "websocket";
export const isStdioProvider = (provider: Provider): provider is StdioProvider => providerTransport[provider] === "stdio";

export const httpProviders: ReadonlyArray<HttpProvider> = providers.filter(isHttpProvider);

/** The providers `replay-agent new` writes transcripts for; each has its frame shapes in replay-agent/new/. */
export const newProviders = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "gemini",
  "ollama",
  "bedrock",
  "cohere",
  "opencode",
  "openai-realtime",
  "jsonrpc-stdio",
  "codex-app-server",
  "codex-exec",
  "claude-code",
] as const satisfies ReadonlyArray<Provider>;
export type NewProvider = (typeof newProviders)[number];

/** A provider `new` writes as requests answered one by one, each from its request template (every HTTP one but opencode). */
export type NewHttpProvider = Exclude<Extract<NewProvider, HttpProvider>, "opencode">;

/** A provider `new` writes as one session of messages (WebSocket or stdio). */
export type NewSessionProvider = Exclude<NewProvider, HttpProvider>;
