import { resolve } from "node:path";
import type { ProviderName, ProviderSettings } from "./provider.ts";

/** A missing or malformed setting; its message names the variable to set. */
export class ConfigError extends Error {}

export interface ServerConfig {
  port: number;
  home: string;
  provider: ProviderSettings;
  /** Where new threads' titles are asked (AGENT_CHAT_TITLE_PROVIDER); null: a thread is titled by its first message. */
  titles: ProviderSettings | null;
}

interface ProviderVariables {
  /** The variable holding the key; null for a provider that takes none. */
  apiKey: string | null;
  baseURL: string;
  defaultModel: string;
}

// Where each provider's key and endpoint come from, and its model when AGENT_CHAT_MODEL is unset.
const providerVariables: Record<ProviderName, ProviderVariables> = {
  openai: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL", defaultModel: "gpt-4o-mini" },
  "openai-fetch": { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL", defaultModel: "gpt-4o-mini" },
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL", defaultModel: "claude-sonnet-4-6" },
  ollama: { apiKey: null, baseURL: "OLLAMA_HOST", defaultModel: "llama3.2" },
  // The agent holds its own credentials; CODEX_COMMAND is the command line that starts it.
  codex: { apiKey: null, baseURL: "CODEX_COMMAND", defaultModel: "gpt-5.1-codex" },
};

export function readHome(env: NodeJS.ProcessEnv): string {
  const home = env.AGENT_CHAT_HOME;
  if (!home) {
    throw new ConfigError("AGENT_CHAT_HOME is not set: set it to the directory where agent-chat keeps its event log.");
  }
  return resolve(home);
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const port = Number(env.PORT);
  if (!env.PORT || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT is ${env.PORT ? `"${env.PORT}", not a port number` : "not set"}: set it to the port to listen on.`);
  }
  return { port, home: readHome(env), provider: readProvider(env), titles: readTitles(env) };
}

/** The only provider titles are asked of, and its model when AGENT_CHAT_TITLE_MODEL is unset. */
const titleProvider = "anthropic";
const defaultTitleModel = "claude-haiku-4-5";

function readTitles(env: NodeJS.ProcessEnv): ProviderSettings | null {
  const name = env.AGENT_CHAT_TITLE_PROVIDER;
  if (!name) return null;
  if (name !== titleProvider) {
    throw new ConfigError(
      `AGENT_CHAT_TITLE_PROVIDER is "${name}", which is not a title provider: set it to ${titleProvider}, or leave it unset to title threads by their first message.`,
    );
  }
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new ConfigError("ANTHROPIC_API_KEY is not set: set it to the key of the provider that titles threads (anthropic).");
  return { name, model: env.AGENT_CHAT_TITLE_MODEL || defaultTitleModel, baseURL: env.ANTHROPIC_BASE_URL || undefined, apiKey };
}

function readProvider(env: NodeJS.ProcessEnv): ProviderSettings {
  const name = env.AGENT_CHAT_PROVIDER || "openai";
  if (!isProviderName(name)) {
    const names = Object.keys(providerVariables).join(", ");
    throw new ConfigError(`AGENT_CHAT_PROVIDER is "${name}", which is not a provider: set it to one of ${names} (openai when unset).`);
  }
  const variables = providerVariables[name];
  const apiKey = variables.apiKey === null ? "" : env[variables.apiKey];
  if (variables.apiKey !== null && !apiKey) {
    throw new ConfigError(`${variables.apiKey} is not set: set it to the key of the model provider (${name}).`);
  }
  return { name, model: env.AGENT_CHAT_MODEL || variables.defaultModel, baseURL: env[variables.baseURL] || undefined, apiKey: apiKey ?? "" };
}

function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(providerVariables, name);
}
