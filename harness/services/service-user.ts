import { readFile } from "node:fs/promises";
import { HarnessError } from "../errors.ts";

/** The user a database runs as when the harness runs as root, which databases refuse to run as. */
export interface ServiceUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** The users tried, in order: the one Debian's postgresql package makes, else the unprivileged `nobody`. */
const candidates = ["postgres", "nobody"];

/** Under root (uid 0), the user a service runs as; undefined when the harness is not root (services run as its user). */
export async function serviceUser(): Promise<ServiceUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = await readFile("/etc/passwd", "utf8").catch(() => "");
  for (const name of candidates) {
    const fields = passwd
      .split("\n")
      .find((line) => line.startsWith(`${name}:`))
      ?.split(":");
    if (fields?.[2] !== undefined && fields[3] !== undefined) return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new HarnessError(
    "boot",
    `The harness runs as root, which PostgreSQL refuses to run as, and this machine has neither a "postgres" nor a "nobody" user ` +
      `to run it as: create one (useradd --system postgres), or run the tests as a user other than root.`,
  );
}

/**
 * `command` with its `args`, run as `user` when there is one: through setpriv (util-linux) with CAP_DAC_OVERRIDE kept,
 * so it reaches its data folder under the root-only temp folders of the test while it runs as that user.
 */
export function asUser(user: ServiceUser | undefined, command: string, args: ReadonlyArray<string>): [string, ReadonlyArray<string>] {
  if (user === undefined) return [command, args];
  return [
    "setpriv",
    [
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      "--clear-groups",
      "--inh-caps=+dac_override",
      "--ambient-caps=+dac_override",
      command,
      ...args,
    ],
  ];
}
