import * as Effect from "effect/Effect";
import { simpleGit } from "simple-git";
import { environment, trusted } from "../git/user-git.ts";
import { withoutCredentials } from "./remote-url.ts";

/** git's message, one line, credentials taken out of any URL in it. */
export const detailOf = (error: unknown) =>
  withoutCredentials(
    (error instanceof Error ? error.message : String(error))
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .join("; "),
  );

/** Runs git in `repo` and gives its output, or `fail` of its message. */
export function runGit<E>(
  repo: string,
  args: ReadonlyArray<string>,
  fail: (detail: string) => E,
  extra: Readonly<Record<string, string>> = {},
): Effect.Effect<string, E> {
  const env = environment(extra);
  return Effect.tryPromise({
    // Aborted when publishing is stopped, so git stops too.
    try: (abort) => simpleGit({ baseDir: repo, allowEnvironment: Object.keys(env), unsafe: trusted, abort }).env(env).raw([...args]),
    catch: (error) => fail(detailOf(error)),
  });
}
