/** The replay agent's providers init writes an example transcript for, one for each API the SDKs below speak. */
export type SdkProvider = "openai-chat" | "openai-responses" | "anthropic-messages" | "gemini" | "ollama" | "bedrock" | "cohere";

/** Where a package is listed: package.json, or a Python app's requirements.txt or pyproject.toml. */
export type Ecosystem = "node" | "python";

/** Variables for the config's `provider`. */
export type Variables = Readonly<Record<string, string>>;

/** A model provider's client library, and what points it at the replay agent. Each claim was read in the SDK's own source. */
export interface ProviderSdk {
  readonly name: string;
  readonly ecosystem: Ecosystem;
  /** The provider of the example transcript: the API the SDK calls. */
  readonly transcript: SdkProvider;
  /** An older line's provider, when it called another API by default: before `before`, `transcript`. */
  readonly older?: { readonly before: string; readonly transcript: SdkProvider };
  /** The variables it reads to reach the replay agent, from version `since` on (undefined: every version). */
  readonly reads?: { readonly since: string | undefined; readonly variables: Variables; readonly why: string };
  /** Variables it needs before it sends anything when routed: its key, region or credentials. */
  readonly keys: Variables;
  /** The URL its code calls when routed, as the route's reason says it. */
  readonly calls: string;
  /** Why the route is the way, when it is not that the SDK reads no base URL variable: said after its name. */
  readonly fixed?: string;
  /** Why the route cannot reach it; undefined when it can. */
  readonly unroutable?: string;
  /** For an SDK that reads no variable and that the route cannot reach: what the app's code must read, by convention. */
  readonly passed?: Variables;
}

const awsKeys = { AWS_ACCESS_KEY_ID: "replay", AWS_SECRET_ACCESS_KEY: "replay" };

/** The loopback reason of an Ollama client: the route leaves the loopback alone. */
const loopback = "its default host, http://127.0.0.1:11434, is on the loopback, which the route leaves alone";

/**
 * The SDKs init recognises. Each version boundary was read in the package's published code (the
 * Node ones in the npm registry's tarballs, the version before and the version from); the Python
 * ones in their repositories' sources and changelogs, boto3's in the AWS SDKs' notes on
 * service-specific endpoints.
 */
export const providerSdks: ReadonlyArray<ProviderSdk> = [
  {
    name: "openai",
    ecosystem: "node",
    transcript: "openai-chat",
    reads: {
      since: "4.21.0",
      variables: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
      why: "reads OPENAI_BASE_URL (from 4.21.0 on) and OPENAI_API_KEY",
    },
    keys: { OPENAI_API_KEY: "replay" },
    calls: "https://api.openai.com/v1",
  },
  {
    name: "@anthropic-ai/sdk",
    ecosystem: "node",
    transcript: "anthropic-messages",
    reads: {
      since: "0.11.0",
      variables: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" },
      why: "reads ANTHROPIC_BASE_URL (from 0.11.0 on; it adds /v1 itself) and ANTHROPIC_API_KEY",
    },
    keys: { ANTHROPIC_API_KEY: "replay" },
    calls: "https://api.anthropic.com",
  },
  {
    name: "@ai-sdk/openai",
    ecosystem: "node",
    // From 2.0 on, openai(model) is a Responses API model; 1.x made a Chat Completions one.
    transcript: "openai-responses",
    older: { before: "2.0.0", transcript: "openai-chat" },
    reads: {
      since: "2.0.42",
      variables: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
      why: "reads OPENAI_BASE_URL (from 2.0.42 on) and OPENAI_API_KEY",
    },
    keys: { OPENAI_API_KEY: "replay" },
    calls: "https://api.openai.com/v1",
  },
  {
    name: "@ai-sdk/anthropic",
    ecosystem: "node",
    transcript: "anthropic-messages",
    reads: {
      since: "2.0.35",
      variables: { ANTHROPIC_BASE_URL: "{replay}/v1", ANTHROPIC_API_KEY: "replay" },
      why: "reads ANTHROPIC_BASE_URL (from 2.0.35 on; its base URL ends with /v1) and ANTHROPIC_API_KEY",
    },
    keys: { ANTHROPIC_API_KEY: "replay" },
    calls: "https://api.anthropic.com/v1",
  },
  {
    name: "@ai-sdk/google",
    ecosystem: "node",
    transcript: "gemini",
    keys: { GOOGLE_GENERATIVE_AI_API_KEY: "replay" },
    calls: "https://generativelanguage.googleapis.com/v1beta",
  },
  {
    name: "@ai-sdk/amazon-bedrock",
    ecosystem: "node",
    transcript: "bedrock",
    keys: { AWS_REGION: "us-east-1", ...awsKeys },
    calls: "https://bedrock-runtime.<region>.amazonaws.com",
    fixed:
      "calls https://bedrock-runtime.<region>.amazonaws.com unless its code says otherwise; only some versions read AWS_ENDPOINT_URL_BEDROCK_RUNTIME (3.0.131 on in 3.x, 4.0.176 on in 4.x, 5.0.82 on in 5.x)",
  },
  {
    name: "@ai-sdk/cohere",
    ecosystem: "node",
    transcript: "cohere",
    keys: { COHERE_API_KEY: "replay" },
    calls: "https://api.cohere.com/v2",
  },
  {
    name: "@google/genai",
    ecosystem: "node",
    transcript: "gemini",
    reads: {
      since: "0.10.0",
      variables: { GOOGLE_GEMINI_BASE_URL: "{replay}", GOOGLE_API_KEY: "replay" },
      why: "reads GOOGLE_GEMINI_BASE_URL (its Node build, from 0.10.0 on) and GOOGLE_API_KEY",
    },
    keys: { GOOGLE_API_KEY: "replay" },
    calls: "https://generativelanguage.googleapis.com",
  },
  {
    name: "ollama",
    ecosystem: "node",
    transcript: "ollama",
    keys: {},
    calls: "http://127.0.0.1:11434",
    unroutable: `reads no variable (0.1 to 0.6), and ${loopback}: pass \`host: process.env.OLLAMA_HOST\` to \`new Ollama()\``,
    passed: { OLLAMA_HOST: "{replay}" },
  },
  {
    name: "@aws-sdk/client-bedrock-runtime",
    ecosystem: "node",
    transcript: "bedrock",
    reads: {
      since: "3.428.0",
      variables: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_REGION: "us-east-1", ...awsKeys },
      why: "reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 3.428.0 on), AWS_REGION and the credentials (never checked)",
    },
    keys: { AWS_REGION: "us-east-1", ...awsKeys },
    calls: "https://bedrock-runtime.<region>.amazonaws.com",
    unroutable: "in Node it speaks HTTP/2 (http2.connect), which takes no proxy",
  },
  {
    name: "cohere-ai",
    ecosystem: "node",
    transcript: "cohere",
    keys: { CO_API_KEY: "replay" },
    calls: "https://api.cohere.com",
  },
  {
    name: "@langchain/openai",
    ecosystem: "node",
    transcript: "openai-chat",
    reads: {
      since: "1.5.6",
      variables: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
      why: "reads OPENAI_BASE_URL (from 1.5.6 on) and OPENAI_API_KEY",
    },
    keys: { OPENAI_API_KEY: "replay" },
    calls: "https://api.openai.com/v1",
  },
  {
    name: "@langchain/anthropic",
    ecosystem: "node",
    transcript: "anthropic-messages",
    reads: {
      since: "1.5.4",
      variables: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" },
      why: "reads ANTHROPIC_BASE_URL (from 1.5.4 on) and ANTHROPIC_API_KEY",
    },
    keys: { ANTHROPIC_API_KEY: "replay" },
    calls: "https://api.anthropic.com",
  },
  {
    name: "@langchain/google-genai",
    ecosystem: "node",
    transcript: "gemini",
    keys: { GOOGLE_API_KEY: "replay" },
    calls: "https://generativelanguage.googleapis.com",
  },
  {
    name: "@langchain/ollama",
    ecosystem: "node",
    transcript: "ollama",
    reads: {
      since: "1.1.0",
      variables: { OLLAMA_BASE_URL: "{replay}" },
      why: "reads OLLAMA_BASE_URL (from 1.1.0 on)",
    },
    keys: {},
    calls: "http://127.0.0.1:11434",
    unroutable: loopback,
  },
  {
    name: "@langchain/aws",
    ecosystem: "node",
    transcript: "bedrock",
    reads: {
      since: undefined,
      variables: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_DEFAULT_REGION: "us-east-1", ...awsKeys },
      why: "reads AWS_DEFAULT_REGION, and its @aws-sdk/client-bedrock-runtime (3.428.0 on) AWS_ENDPOINT_URL_BEDROCK_RUNTIME and the credentials",
    },
    keys: { AWS_DEFAULT_REGION: "us-east-1", ...awsKeys },
    calls: "https://bedrock-runtime.<region>.amazonaws.com",
    unroutable: "its @aws-sdk/client-bedrock-runtime speaks HTTP/2 in Node (http2.connect), which takes no proxy",
  },
  {
    name: "openai",
    ecosystem: "python",
    transcript: "openai-chat",
    reads: {
      since: "1.3.0",
      variables: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
      why: "reads OPENAI_BASE_URL (from 1.3.0 on) and OPENAI_API_KEY",
    },
    keys: { OPENAI_API_KEY: "replay" },
    calls: "https://api.openai.com/v1",
  },
  {
    name: "anthropic",
    ecosystem: "python",
    transcript: "anthropic-messages",
    reads: {
      since: "0.7.0",
      variables: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" },
      why: "reads ANTHROPIC_BASE_URL (from 0.7.0 on) and ANTHROPIC_API_KEY",
    },
    keys: { ANTHROPIC_API_KEY: "replay" },
    calls: "https://api.anthropic.com",
  },
  {
    name: "google-genai",
    ecosystem: "python",
    transcript: "gemini",
    keys: { GOOGLE_API_KEY: "replay" },
    calls: "https://generativelanguage.googleapis.com",
  },
  {
    name: "ollama",
    ecosystem: "python",
    transcript: "ollama",
    reads: { since: undefined, variables: { OLLAMA_HOST: "{replay}" }, why: "reads OLLAMA_HOST when the code gives no host" },
    keys: {},
    calls: "http://127.0.0.1:11434",
    unroutable: loopback,
  },
  {
    name: "boto3",
    ecosystem: "python",
    transcript: "bedrock",
    reads: {
      since: "1.28.0",
      variables: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_DEFAULT_REGION: "us-east-1", ...awsKeys },
      why: "reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 1.28 on), AWS_DEFAULT_REGION and the credentials (never checked)",
    },
    keys: { AWS_DEFAULT_REGION: "us-east-1", ...awsKeys },
    calls: "https://bedrock-runtime.<region>.amazonaws.com",
    unroutable: "botocore checks TLS against its own CA bundle (AWS_CA_BUNDLE), not the route's",
  },
  {
    name: "cohere",
    ecosystem: "python",
    transcript: "cohere",
    keys: { CO_API_KEY: "replay" },
    calls: "https://api.cohere.com",
  },
  {
    name: "langchain-openai",
    ecosystem: "python",
    transcript: "openai-chat",
    keys: { OPENAI_API_KEY: "replay" },
    calls: "https://api.openai.com/v1",
  },
  {
    name: "langchain-anthropic",
    ecosystem: "python",
    transcript: "anthropic-messages",
    keys: { ANTHROPIC_API_KEY: "replay" },
    calls: "https://api.anthropic.com",
  },
  {
    name: "langchain-google-genai",
    ecosystem: "python",
    transcript: "gemini",
    keys: { GOOGLE_API_KEY: "replay" },
    calls: "https://generativelanguage.googleapis.com",
  },
  {
    name: "langchain-ollama",
    ecosystem: "python",
    transcript: "ollama",
    reads: {
      since: undefined,
      variables: { OLLAMA_HOST: "{replay}" },
      why: "passes no host to its ollama client, which then reads OLLAMA_HOST",
    },
    keys: {},
    calls: "http://127.0.0.1:11434",
    unroutable: loopback,
  },
  {
    name: "langchain-aws",
    ecosystem: "python",
    transcript: "bedrock",
    reads: {
      since: undefined,
      variables: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_DEFAULT_REGION: "us-east-1", ...awsKeys },
      why: "calls Bedrock through boto3, which reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 1.28 on), AWS_DEFAULT_REGION and the credentials",
    },
    keys: { AWS_DEFAULT_REGION: "us-east-1", ...awsKeys },
    calls: "https://bedrock-runtime.<region>.amazonaws.com",
    unroutable: "botocore checks TLS against its own CA bundle (AWS_CA_BUNDLE), not the route's",
  },
  {
    name: "langchain-cohere",
    ecosystem: "python",
    transcript: "cohere",
    keys: { CO_API_KEY: "replay" },
    calls: "https://api.cohere.com",
  },
];
