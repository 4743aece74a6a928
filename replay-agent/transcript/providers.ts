/** The provider wire formats a transcript can name in its `meta` line. */
export const providers = ["openai-chat", "openai-responses", "anthropic-messages", "jsonrpc-stdio"] as const;
export type Provider = (typeof providers)[number];

/** How the app reaches the provider: HTTP requests answered in order, or a child process on stdio. */
export type Transport = "http" | "stdio";

/** The transport of every provider; typed exhaustively so a new provider must choose one. */
export const providerTransport = {
  "openai-chat": "http",
  "openai-responses": "http",
  "anthropic-messages": "http",
  "jsonrpc-stdio": "stdio",
} as const satisfies { readonly [P in Provider]: Transport };

/** A provider the app reaches over HTTP: `replay-agent serve` replays it and `replay-agent record` records it. */
export type HttpProvider = { [P in Provider]: (typeof providerTransport)[P] extends "http" ? P : never }[Provider];

/** A provider the app spawns as a child process: `replay-agent stdio` replays it. */
export type StdioProvider = Exclude<Provider, HttpProvider>;

export const isHttpProvider = (provider: Provider): provider is HttpProvider => providerTransport[provider] === "http";

export const httpProviders: ReadonlyArray<HttpProvider> = providers.filter(isHttpProvider);
