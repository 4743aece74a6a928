import { Hash } from "@smithy/hash-node";
import { SignatureV4 } from "@smithy/signature-v4";
import { MissingAwsSigningError } from "../errors.ts";
import type { SigV4Credentials } from "../providers/provider-format.ts";
import type { UpstreamAuth, UpstreamRequest } from "./upstream-auth.ts";

/** The app's signature: it signs the app's request for the recorder's host, so it is dropped and the request signed anew. */
const appSignature: ReadonlySet<string> = new Set(["authorization", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256"]);

const given = (value: string | undefined): value is string => value !== undefined && value !== "";

/** `names` as a sentence lists them: "A", "A and B", "A, B and C". */
const listed = (names: ReadonlyArray<string>): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`;

/** A URL's query as the signer takes it: each name with its value, or its values when repeated. */
const queryOf = (url: URL): Record<string, string | Array<string>> => {
  const query: Record<string, string | Array<string>> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? "") : values;
  }
  return query;
};

/**
 * Signs each forwarded request with AWS Signature V4 for the upstream's host, with the credentials
 * of the standard AWS variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`
 * for temporary ones) and the region the upstream host names, else `AWS_REGION` or
 * `AWS_DEFAULT_REGION`. Profiles and SSO are not read. What is missing, when something is.
 */
export const sigv4Signer = (
  provider: string,
  { sigv4 }: SigV4Credentials,
  upstream: URL,
  env: Readonly<Record<string, string | undefined>>,
): UpstreamAuth | MissingAwsSigningError => {
  const accessKeyId = env["AWS_ACCESS_KEY_ID"];
  const secretAccessKey = env["AWS_SECRET_ACCESS_KEY"];
  const sessionToken = given(env["AWS_SESSION_TOKEN"]) ? env["AWS_SESSION_TOKEN"] : undefined;
  if (!given(accessKeyId) || !given(secretAccessKey)) {
    const missing = [...(given(accessKeyId) ? [] : ["AWS_ACCESS_KEY_ID"]), ...(given(secretAccessKey) ? [] : ["AWS_SECRET_ACCESS_KEY"])];
    return new MissingAwsSigningError({
      provider,
      problem: `signs each request with AWS Signature V4, with the credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary ones), but ${listed(missing)} ${missing.length === 1 ? "is" : "are"} not set`,
      fix: `Export ${listed(missing)}; AWS profiles and SSO are not read, and the app's own signature is never forwarded`,
    });
  }
  const region = sigv4.regionOfHost(upstream.hostname) ?? [env["AWS_REGION"], env["AWS_DEFAULT_REGION"]].find(given);
  if (region === undefined)
    return new MissingAwsSigningError({
      provider,
      problem: `signs each request for a region: the one its --upstream host names (${upstream.hostname} names none), else AWS_REGION or AWS_DEFAULT_REGION, which are not set`,
      fix: "Export AWS_REGION, the region of the upstream",
    });
  const signer = new SignatureV4({
    service: sigv4.service,
    region,
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) },
    sha256: Hash.bind(null, "sha256"),
  });
  const sign = async ({ method, url, headers, body }: UpstreamRequest): Promise<Readonly<Record<string, string>>> => {
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !appSignature.has(name.toLowerCase())));
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === "" ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query: queryOf(url),
      // Signed as fetch sends it: `url.host`, with the port when it is not the default.
      headers: { ...kept, host: url.host },
      body,
    });
    // fetch writes the host itself, the value signed.
    return Object.fromEntries(Object.entries(signed.headers).filter(([name]) => name !== "host"));
  };
  return { sign, secrets: [accessKeyId, secretAccessKey, ...(sessionToken === undefined ? [] : [sessionToken])] };
};
