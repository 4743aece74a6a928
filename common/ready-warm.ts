/** What `app.ready.warm` may hold: a list of paths on the app's server, each starting with "/". */
export const warmShape =
  'set it to a list of paths the harness asks for once the app is ready, each starting with "/", e.g. ["/api/chat"], or leave it out';

/** What is wrong with a value of `app.ready.warm`, as the end of a sentence naming it; undefined for a good one (or none). */
export function warmProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return `is ${JSON.stringify(value) ?? String(value)}; ${warmShape}`;
  const bad: unknown = value.find((path: unknown) => typeof path !== "string" || !path.startsWith("/") || path.startsWith("//"));
  return bad === undefined ? undefined : `holds ${JSON.stringify(bad) ?? String(bad)}, which is not a path; ${warmShape}`;
}
