/** The provider wire formats a transcript can name in its `meta` line. */
export const providers = ["openai-chat", "openai-responses", "anthropic-messages", "jsonrpc-stdio"] as const;
export type Provider = (typeof providers)[number];

/** How the app reaches the provider: HTTP requests answered in order, or a child process on stdio. */
export type Transport = "http" | "stdio";

/** The transport of every provider; typed exhaustively so a new provider must choose one. */
export const providerTransport: { readonly [P in Provider]: Transport } = {
  "openai-chat": "http",
  "openai-responses": "http",
  "anthropic-messages": "http",
  "jsonrpc-stdio": "stdio",
};
