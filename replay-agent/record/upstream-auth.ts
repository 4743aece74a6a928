import * as Effect from "effect/Effect";
import { MissingKeyError, type MissingAwsSigningError } from "../errors.ts";
import { httpFormats } from "../providers/registry.ts";
import type { HttpProvider } from "../transcript/providers.ts";
import { sigv4Signer } from "./sigv4-signer.ts";

/** A request as the recorder forwards it upstream. */
export interface UpstreamRequest {
  readonly method: string;
  readonly url: URL;
  /** The app's headers, its credentials already dropped. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | undefined;
}

/** How the recorder authenticates upstream: the headers each request goes with, and the secrets it holds, never written. */
export interface UpstreamAuth {
  readonly sign: (request: UpstreamRequest) => Promise<Readonly<Record<string, string>>>;
  readonly secrets: ReadonlyArray<string>;
}

/**
 * How the recorder authenticates to `provider` at `upstream`, from its own environment: the key
 * its profile names in the profile's headers, an AWS Signature V4 of each request, or nothing
 * for a provider that takes no key. Fails naming what is not set.
 */
export const upstreamAuth = (
  provider: HttpProvider,
  upstream: URL,
  env: Readonly<Record<string, string | undefined>>,
): Effect.Effect<UpstreamAuth, MissingKeyError | MissingAwsSigningError> => {
  const { credentials } = httpFormats[provider];
  if (credentials === undefined) return Effect.succeed({ sign: ({ headers }) => Promise.resolve(headers), secrets: [] });
  if ("sigv4" in credentials) {
    const signer = sigv4Signer(provider, credentials, upstream, env);
    return signer instanceof Error ? Effect.fail(signer) : Effect.succeed(signer);
  }
  const key = env[credentials.env];
  if (key === undefined || key === "") return Effect.fail(new MissingKeyError({ provider, env: credentials.env }));
  const keyHeaders = credentials.headers(key);
  return Effect.succeed({ sign: ({ headers }) => Promise.resolve({ ...headers, ...keyHeaders }), secrets: [key] });
};
