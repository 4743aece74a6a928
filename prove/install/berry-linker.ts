import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/**
 * What the prover sets for a yarn berry install whose repository names no linker: node_modules,
 * which the app's start command and the scenario's Playwright find, instead of Plug'n'Play's
 * .pnp.cjs. An environment variable of that install alone, so no file of the repository changes.
 */
export const nodeModulesLinker: Readonly<Record<string, string>> = { YARN_NODE_LINKER: "node-modules" };

/** A yarn berry rc file's nodeLinker line (a top-level key of its YAML), with its value when it is a plain word. */
const linkerLine = /^["']?nodeLinker["']?\s*:(?:[ \t]*["']?([\w-]+))?/m;

type Env = Readonly<Record<string, string | undefined>>;

/** The value of a variable whose name yarn reads without regard to case, as berry reads `YARN_*`. */
const variable = (env: Env, name: string) =>
  Object.entries(env).find(([key, value]) => key.toLowerCase() === name && value !== undefined)?.[1];

/**
 * Where yarn berry, run in `dir`, would take nodeLinker from, as berry looks, and the value there: a
 * YARN_NODE_LINKER variable (which wins), then the rc files (`.yarnrc.yml`, or YARN_RC_FILENAME)
 * from `dir` up to the filesystem's root, then the one in the home folder. Undefined when none sets
 * it, and berry would install with Plug'n'Play.
 */
function linkerSetting(dir: string, env: Env, home: string): { readonly source: string; readonly value: string | undefined } | undefined {
  const fromEnv = variable(env, "yarn_node_linker");
  if (fromEnv !== undefined) return { source: "YARN_NODE_LINKER in the environment", value: fromEnv };
  const rcName = variable(env, "yarn_rc_filename") ?? ".yarnrc.yml";
  const folders = [dir];
  for (let parent = dirname(dir); parent !== folders.at(-1); parent = dirname(parent)) folders.push(parent);
  for (const folder of [...folders, home]) {
    const file = join(folder, rcName);
    const line = existsSync(file) ? linkerLine.exec(readFileSync(file, "utf8")) : null;
    if (line !== null) return { source: file, value: line[1] };
  }
  return undefined;
}

/** Where yarn berry, run in `dir`, would take nodeLinker from (see linkerSetting); undefined when nothing sets it. */
export const berryLinkerSource = (dir: string, env: Env = process.env, home: string = homedir()): string | undefined =>
  linkerSetting(dir, env, home)?.source;

/**
 * The nodeLinker berry would use in `dir` as the repository or the environment sets it (`pnp`,
 * `node-modules`, `pnpm`); undefined when none sets it, where the prover's install sets node-modules.
 */
export const namedBerryLinker = (dir: string, env: Env = process.env, home: string = homedir()): string | undefined =>
  linkerSetting(dir, env, home)?.value;
