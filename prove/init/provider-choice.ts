import type { FoundSdk } from "./manifests.ts";
import type { SdkProvider, Variables } from "./provider-sdks.ts";
import type { FoundUrl } from "./provider-urls.ts";
import { atLeast, sdkVersion, type SdkVersion } from "./sdk-version.ts";

/** How init points the app's model provider at the replay agent, each value with its reason. */
export interface ProviderChoice {
  /** What calls the provider, as the notes and comments name it: the SDK (`openai`, `anthropic (Python)`) or the host the app's code names. */
  readonly caller: string;
  /** Where init found it: the SDK's version and manifest (`"^4.52.0" in package.json`), or the URL and its file. */
  readonly from: string;
  /** Why these lines are the caller's, before the SDKs they leave alone: `openai is the first model provider SDK the app lists`. */
  readonly lead: string;
  /** The example transcript's provider. */
  readonly transcript: SdkProvider;
  /** The config's `provider`; empty when the route needs no variable. */
  readonly variables: Variables;
  readonly variablesWhy: string;
  /** Why the config sets `route: true`; undefined when it does not. */
  readonly route: string | undefined;
  /** Something the user must do for the app to reach the replay agent; undefined when nothing. */
  readonly todo: string | undefined;
  /** The SDKs the manifests list that the config leaves as they are. */
  readonly others: ReadonlyArray<FoundSdk>;
}

/** An SDK's name as the config's comments say it: a Python one is marked, since its name may be a Node package's too. */
const sdkLabel = (found: FoundSdk) => (found.sdk.ecosystem === "python" ? `${found.sdk.name} (Python)` : found.sdk.name);

/** Whether the SDK, at the version init can tell, reads the variables that reach the replay agent. */
function readsVariables(found: FoundSdk, version: SdkVersion): boolean {
  const since = found.sdk.reads?.since;
  if (found.sdk.reads === undefined) return false;
  return since === undefined || version.kind === "newest" || (version.kind === "known" && atLeast(version.version, since));
}

/** Why the SDK's own URL holds, for the route's reason: it reads no base URL variable, or not at this version, or init cannot tell. */
function fixedUrl(found: FoundSdk, version: SdkVersion): string {
  const { sdk } = found;
  const name = sdkLabel(found);
  const since = sdk.reads?.since;
  if (sdk.fixed !== undefined) return `${name} ${sdk.fixed}`;
  if (sdk.ecosystem === "python" && sdk.reads === undefined) {
    return `Python libraries differ in the base URL variable they read, and ${name} calls ${sdk.calls} unless its code says otherwise`;
  }
  if (since === undefined) return `${name} reads no base URL variable and calls ${sdk.calls} unless its code says otherwise`;
  if (version.kind === "unknown") {
    return `init cannot tell ${name}'s version (${version.from}), and before ${since} it reads no base URL variable and calls ${sdk.calls}`;
  }
  return `${name} before ${since} (${version.from}) reads no base URL variable and calls ${sdk.calls} unless its code says otherwise`;
}

/**
 * How to point the first of `found` at the replay agent: the variables it reads, where it reads them
 * at its version; else the route to the hosts `hostsOf` gives for its transcript's provider, with
 * the key it needs; else (the route cannot reach it) the variables, and what the user must do.
 * `installed` gives a Node package's version in node_modules. Undefined when `found` is empty.
 */
function sdkChoice(
  found: ReadonlyArray<FoundSdk>,
  hostsOf: (provider: SdkProvider) => ReadonlyArray<string>,
  installed: (name: string) => string | undefined,
): ProviderChoice | undefined {
  const [first, ...others] = found;
  if (first === undefined) return undefined;
  const { sdk } = first;
  const version = sdkVersion(first, first.sdk.ecosystem === "node" ? installed(first.sdk.name) : undefined);
  const name = sdkLabel(first);
  const transcript =
    sdk.older !== undefined && version.kind === "known" && !atLeast(version.version, sdk.older.before)
      ? sdk.older.transcript
      : sdk.transcript;
  const base = { caller: name, from: version.from, lead: `${name} is the first model provider SDK the app lists`, transcript, others };
  if (sdk.reads !== undefined && readsVariables(first, version)) {
    return { ...base, variables: sdk.reads.variables, variablesWhy: `${name} ${sdk.reads.why}`, route: undefined, todo: undefined };
  }
  if (sdk.unroutable === undefined) {
    const keys = Object.keys(sdk.keys).join(", ");
    return {
      ...base,
      variables: sdk.keys,
      variablesWhy: `${name} needs ${keys} before it sends; the replay agent never checks ${Object.keys(sdk.keys).length === 1 ? "it" : "them"}`,
      route: `${fixedUrl(first, version)}: the route sends ${hostsOf(transcript).join(", ")} to the replay agent`,
      todo: undefined,
    };
  }
  if (sdk.reads !== undefined) {
    const since = sdk.reads.since ?? "";
    return {
      ...base,
      variables: sdk.reads.variables,
      variablesWhy: `${name} ${sdk.reads.why}; the route cannot reach it: ${sdk.unroutable}`,
      route: undefined,
      todo: `${name} reads ${Object.keys(sdk.reads.variables)[0] ?? ""} only from ${since} on, and ${version.kind === "known" ? `${version.from} allows an older one` : `init cannot tell its version (${version.from})`}: make sure the app runs ${since} or later, or its calls never reach the replay agent.`,
    };
  }
  return {
    ...base,
    variables: sdk.passed ?? {},
    variablesWhy: `${name} ${sdk.unroutable}`,
    route: undefined,
    todo: `${name} ${sdk.unroutable}, so that the replay agent answers it.`,
  };
}

/** Whether two lists of hosts are the same. */
const sameHosts = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((host) => b.includes(host));

/**
 * The route for `url`, a provider URL the app's code names, which no SDK variable changes. The SDK's
 * choice `sdk` stays beside it when its calls go to the same hosts (its variables reach its own calls,
 * and harm none); the keys the URL's file names are set otherwise.
 */
function urlChoice(
  url: FoundUrl,
  sdk: ProviderChoice | undefined,
  found: ReadonlyArray<FoundSdk>,
  hostsOf: (provider: SdkProvider) => ReadonlyArray<string>,
): ProviderChoice {
  const hosts = hostsOf(url.transcript);
  const routed = `${url.file} names ${url.url}, which no variable changes: the route sends ${hosts.join(", ")} to the replay agent`;
  const base = {
    caller: url.host,
    from: `${url.url} in ${url.file}`,
    lead: `${url.file}'s call to ${url.host} is the first call to a provider the app's source names`,
    transcript: url.transcript,
  };
  if (sdk !== undefined && sameHosts(hostsOf(sdk.transcript), hosts)) {
    const kept = Object.keys(sdk.variables).length === 0 ? "" : `; the provider variables stay for ${sdk.caller}'s own calls`;
    return {
      ...base,
      variables: sdk.variables,
      variablesWhy: sdk.variablesWhy,
      route: `${routed}${kept}`,
      todo: sdk.todo,
      others: sdk.others,
    };
  }
  const keys = Object.keys(url.keys);
  return {
    ...base,
    variables: url.keys,
    variablesWhy: `${url.file} names ${keys.join(", ")}, which the app may need before it sends; the replay agent never checks ${keys.length === 1 ? "it" : "them"}`,
    route: routed,
    todo: undefined,
    others: found,
  };
}

/**
 * How to point the app's model provider at the replay agent: the route, when the app's own source
 * names a provider's URL (the first of `urls`), since no variable changes it; else the first SDK of
 * `found` as sdkChoice says. Undefined when both are empty.
 */
export function chooseProvider(
  found: ReadonlyArray<FoundSdk>,
  urls: ReadonlyArray<FoundUrl>,
  hostsOf: (provider: SdkProvider) => ReadonlyArray<string>,
  installed: (name: string) => string | undefined,
): ProviderChoice | undefined {
  const sdk = sdkChoice(found, hostsOf, installed);
  const [url] = urls;
  return url === undefined ? sdk : urlChoice(url, sdk, found, hostsOf);
}
