import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/**
 * What the prover sets for a yarn berry install whose repository names no linker: node_modules,
 * which the app's start command and the scenario's Playwright find, instead of Plug'n'Play's
 * .pnp.cjs. An environment variable of that install alone, so no file of the repository changes.
 */
export const nodeModulesLinker: Readonly<Record<string, string>> = { YARN_NODE_LINKER: "node-modules" };

/** Whether a yarn berry rc file's text sets nodeLinker (a top-level key of its YAML). */
const setsLinker = (text: string) => /^["']?nodeLinker["']?\s*:/m.test(text);

/** The value of a variable whose name yarn reads without regard to case, as berry reads `YARN_*`. */
const variable = (env: Readonly<Record<string, string | undefined>>, name: string) =>
  Object.entries(env).find(([key, value]) => key.toLowerCase() === name && value !== undefined)?.[1];

/**
 * Where yarn berry, run in `dir`, would take nodeLinker from, as berry looks: a YARN_NODE_LINKER
 * variable (which wins), then the rc files (`.yarnrc.yml`, or YARN_RC_FILENAME) from `dir` up to
 * the filesystem's root, then the one in the home folder. Undefined when none sets it, and berry
 * would install with Plug'n'Play.
 */
export function berryLinkerSource(
  dir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string | undefined {
  if (variable(env, "yarn_node_linker") !== undefined) return "YARN_NODE_LINKER in the environment";
  const rcName = variable(env, "yarn_rc_filename") ?? ".yarnrc.yml";
  const folders = [dir];
  for (let parent = dirname(dir); parent !== folders.at(-1); parent = dirname(parent)) folders.push(parent);
  for (const folder of [...folders, home]) {
    const file = join(folder, rcName);
    if (existsSync(file) && setsLinker(readFileSync(file, "utf8"))) return file;
  }
  return undefined;
}

/**
 * The nodeLinker berry would use in `dir` as the repository or the environment sets it (`pnp`,
 * `node-modules`, `pnpm`); undefined when none sets it, where the prover's install sets node-modules.
 */
export function namedBerryLinker(
  dir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string | undefined {
  const source = berryLinkerSource(dir, env, home);
  if (source === undefined) return undefined;
  const fromEnv = variable(env, "yarn_node_linker");
  if (fromEnv !== undefined) return fromEnv;
  return /^["']?nodeLinker["']?\s*:\s*["']?([\w-]+)/m.exec(readFileSync(source, "utf8"))?.[1];
}
