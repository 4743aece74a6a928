import { resolve } from "node:path";

/** A missing or malformed setting; its message names the variable to set. */
export class ConfigError extends Error {}

export interface ServerConfig {
  port: number;
  home: string;
  model: string;
  baseURL: string | undefined;
  apiKey: string;
}

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
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey) throw new ConfigError("OPENAI_API_KEY is not set: set it to the key of the model provider.");
  return {
    port,
    home: readHome(env),
    model: env.AGENT_CHAT_MODEL || "gpt-4o-mini",
    baseURL: env.OPENAI_BASE_URL || undefined,
    apiKey,
  };
}
