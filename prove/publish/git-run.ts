import * as Effect from "effect/Effect";
import { gitErrorDetail, userGit } from "../git/user-git.ts";
import { withoutCredentials } from "./remote-url.ts";

/** git's message, one line, credentials taken out of any URL in it. */
export const detailOf = (error: unknown) => withoutCredentials(gitErrorDetail(error));

/** Runs git in `repo` and gives its output, or `fail` of its message. */
export function runGit<E>(
  repo: string,
  args: ReadonlyArray<string>,
  fail: (detail: string) => E,
  extra: Readonly<Record<string, string>> = {},
): Effect.Effect<string, E> {
  return Effect.tryPromise({
    // Aborted when publishing is stopped, so git stops too.
    try: (abort) => userGit(repo, { abort, extra }).raw([...args]),
    catch: (error) => fail(detailOf(error)),
  });
}
