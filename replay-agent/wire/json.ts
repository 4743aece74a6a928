import type { HttpResponseWriter } from "./http-response.ts";

/** Headers describing the recorded transfer, not the body we write; sending them again would corrupt the response. */
export const transferHeaders: ReadonlySet<string> = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

/** Writes a whole JSON response with `status`, the recorded `headers` that still apply, and `body`. */
export const writeJsonResponse = (
  response: HttpResponseWriter,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void => {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !transferHeaders.has(name.toLowerCase())));
  const typed = Object.keys(kept).some((name) => name.toLowerCase() === "content-type");
  response.writeHead(status, typed ? kept : { "content-type": "application/json", ...kept });
  response.end(JSON.stringify(body));
};
