import { relative, sep } from "node:path";
import { providerSdks, type SdkProvider, type Variables } from "./provider-sdks.ts";
import { readSource, sourceFiles } from "./source-files.ts";

/** A provider's URL written literally in the app's own source, which no SDK variable changes. */
export interface FoundUrl {
  /** The file naming it, relative to the app's folder. */
  readonly file: string;
  /** The URL as written, up to its end or the first part the code computes (`${`, `{`). */
  readonly url: string;
  readonly host: string;
  /** The provider whose hosts `route: true` routes for it: the example transcript's. */
  readonly transcript: SdkProvider;
  /** The provider's key variables the same file names, which the app may need set before it sends. */
  readonly keys: Variables;
}

/** Which of a provider's hosts' URLs are its, by their path: OpenAI's two APIs share api.openai.com. */
const pathsOf: { readonly [P in SdkProvider]: RegExp } = {
  "openai-chat": /^(?!\/v1\/responses\b)/,
  "openai-responses": /^\/v1\/responses\b/,
  "anthropic-messages": /^/,
  gemini: /^/,
  ollama: /^/,
  bedrock: /^/,
  cohere: /^/,
};

const literalUrl = /\bhttps?:\/\/([A-Za-z0-9.-]+)(?::\d+)?([^\s"'`<>()\\{}$]*)/g;

/** A route host (`api.openai.com`, `bedrock-runtime.*.amazonaws.com`, `*` one label) as a pattern of the whole name. */
const hostPattern = (host: string) => new RegExp(`^${host.replace(/[.+?^$()[\]\\|]/g, "\\$&").replace(/\*/g, "[a-z0-9-]+")}$`, "i");

/** The key variables of `provider`'s SDKs that `text` names. */
function namedKeys(provider: SdkProvider, text: string): Variables {
  const keys = providerSdks.filter((sdk) => sdk.transcript === provider).flatMap((sdk) => Object.entries(sdk.keys));
  return Object.fromEntries(keys.filter(([name]) => new RegExp(`\\b${name}\\b`).test(text)));
}

/**
 * The URLs of the providers `hostsOf` gives hosts for (the ones `route: true` routes) that the app's
 * own source under `dir` names, the first of each host in each file, in the files' order.
 */
export async function findProviderUrls(
  dir: string,
  hostsOf: (provider: SdkProvider) => ReadonlyArray<string>,
): Promise<ReadonlyArray<FoundUrl>> {
  const routed = (Object.keys(pathsOf) as SdkProvider[]).map((provider) => ({
    provider,
    hosts: hostsOf(provider).map(hostPattern),
  }));
  const found: FoundUrl[] = [];
  for (const path of await sourceFiles(dir)) {
    const text = await readSource(path);
    if (text === undefined) continue;
    const file = relative(dir, path).split(sep).join("/");
    for (const [url, host = "", rest = ""] of text.matchAll(literalUrl)) {
      const urlPath = rest.replace(/[?#].*$/, "");
      const transcript = routed.find(
        ({ provider, hosts }) => hosts.some((pattern) => pattern.test(host)) && pathsOf[provider].test(urlPath),
      )?.provider;
      if (transcript === undefined || found.some((other) => other.file === file && other.host === host)) continue;
      found.push({ file, url: url.replace(/[.,;:]+$/, ""), host, transcript, keys: namedKeys(transcript, text) });
    }
  }
  return found;
}
