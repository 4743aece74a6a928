import { realpath, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { planInstall } from "../install/detect.ts";
import { detectApp, type Detection } from "./detect.ts";
import { gitTopLevel, readAppFolder, readPackageJson } from "./folder.ts";
import { addProver, proverBin } from "./manager.ts";
import { renderConfig, renderExample } from "./templates.ts";
import { configFile, exampleFile, readIfExists, refuseExisting, scriptName, withProverScript, withReportsIgnored, writeNewFile } from "./write.ts";

export interface InitResult {
  /** Files written or changed, relative to cwd, in the order written, e.g. ["scenarios.config.ts", "scenarios/example.e2e.ts", "package.json", ".gitignore"]. */
  readonly written: ReadonlyArray<string>;
  /** What was detected, one line each, for the CLI to print (e.g. "package manager: npm (no lockfile)", "start: npm run dev -- --host 127.0.0.1 --port {port} --strictPort (Vite takes the port as a flag)", "served under /sub/ (base in vite.config.ts)"). */
  readonly detected: ReadonlyArray<string>;
  /** Things the user must know or do (could not tell the port; no prove-scenario script for pnpm; not a git repository; ...). */
  readonly notes: ReadonlyArray<string>;
  /** The command that proves a fix with the example, for this package manager: "npx prove-scenario --base main --head HEAD scenarios/example.e2e.ts" (npm), "pnpm prove-scenario …" (pnpm), "yarn prove-scenario …", "bunx prove-scenario …". */
  readonly proveCommand: string;
}

/** What `install: "auto"` runs for the app in `dir`, by the prover's own rule, and a note when that is not the app's manager. */
function autoInstall(dir: string, top: string, detection: Detection): { readonly text: string; readonly note: string | undefined } {
  const plan = planInstall("auto", dir, top);
  if (plan.kind === "skip") return { text: `nothing (${plan.reason})`, note: undefined };
  if (plan.label !== "npm install") return { text: plan.cwd === dir ? plan.label : `${plan.label} in ${relative(dir, plan.cwd)}`, note: undefined };
  const { manager, why } = detection.manager;
  if (manager !== "bun" || !why.includes("bun.lock")) return { text: "npm install (no lockfile)", note: undefined };
  return {
    text: `npm install (auto does not read ${why})`,
    note: `install: "auto" does not read ${why}, so it runs npm install: set app.install to "bun install --frozen-lockfile" in ${configFile} to install with bun.`,
  };
}

/** Dependencies and devDependencies named in package.json. */
function dependsOn(packageJson: Readonly<Record<string, unknown>>, name: string): boolean {
  return ["dependencies", "devDependencies"].some((key) => {
    const deps = packageJson[key];
    return typeof deps === "object" && deps !== null && name in deps;
  });
}

/**
 * Writes a starter scenarios.config.ts and scenarios/example.e2e.ts for the app in `cwd` (the
 * folder holding its package.json), adds the prove-scenario script and ignores reports/ in the
 * repository's root .gitignore.
 * Writes nothing and throws InitRefused when either file exists, InitFailed when package.json
 * is missing, unreadable or has no `dev` or `start` script.
 */
export async function initScenarios(cwd: string): Promise<InitResult> {
  const packageJson = await readPackageJson(cwd);
  refuseExisting(cwd);
  const dir = await realpath(cwd);
  const top = await gitTopLevel(dir);
  const detection = detectApp(readAppFolder(dir, top ?? dir, packageJson.value));
  const { manager, start, base } = detection;
  const root = top === undefined ? "." : relative(top, dir).split(sep).join("/") || ".";
  const install = autoInstall(dir, top ?? dir, detection);
  const portUnknown = start.port.kind === "unknown" ? start.port.why : undefined;

  const notes: string[] = [];
  if (top === undefined) {
    notes.push(`${dir} is not in a git repository: prove-scenario compares two commits of the app, so put it in one (git init, then commit) before proving a fix.`);
  }
  if (portUnknown !== undefined) {
    notes.push(`Could not tell how the server gets its port (${portUnknown}): it must listen on the PORT environment variable, or put {port} into app.start in ${configFile}.`);
  }
  if (install.note !== undefined) notes.push(install.note);
  const scripts = packageJson.value.scripts as Readonly<Record<string, unknown>>;
  const addScript = manager.manager !== "pnpm" && scripts[scriptName] === undefined;
  if (manager.manager === "pnpm") {
    notes.push(
      `No "${scriptName}" script added to package.json: pnpm runs the installed bin for \`pnpm ${scriptName}\` itself, ` +
        'and a script of that name would make pnpm print "[ELIFECYCLE] Command failed with exit code 1." after every "not proved" verdict.',
    );
  } else if (!addScript) {
    notes.push(`package.json already has a "${scriptName}" script; it was left as it is.`);
  }
  if (!dependsOn(packageJson.value, "scenario-prover")) {
    notes.push(`scenario-prover is not in package.json's dependencies: run \`${addProver[manager.manager]}\` so ${configFile} can import scenario-prover/harness.`);
  }

  const config = renderConfig({ root, install: install.text, start: start.command, startWhy: start.port.why, portUnknown, readyPath: base?.path ?? "/" });
  // Reports are written under the checkout's root, so that is where they are ignored.
  const gitignoreFile = join(top ?? dir, ".gitignore");
  const gitignore = withReportsIgnored(await readIfExists(gitignoreFile));
  await writeNewFile(join(dir, configFile), config);
  await writeNewFile(join(dir, exampleFile), renderExample(base?.path));
  const written = [configFile, exampleFile];
  if (addScript) {
    await writeFile(join(dir, "package.json"), withProverScript(packageJson.text, packageJson.value));
    written.push("package.json");
  }
  if (gitignore !== undefined) {
    await writeFile(gitignoreFile, gitignore);
    written.push(relative(dir, gitignoreFile).split(sep).join("/"));
  }

  const startLine = portUnknown === undefined ? start.port.why : `could not tell how the server gets its port: ${portUnknown}`;
  const rootWhy = top === undefined ? "not in a git repository" : root === "." ? "the repository's root" : "relative to the repository's root";
  return {
    written,
    detected: [
      `package manager: ${manager.manager} (${manager.why})`,
      `install: ${install.text}`,
      `start: ${start.command} (${startLine})`,
      ...(base === undefined ? [] : [`served under ${base.path} (base in ${base.file})`]),
      `app root: ${root} (${rootWhy})`,
    ],
    notes,
    proveCommand: `${proverBin[manager.manager]} --base main --head HEAD ${exampleFile}`,
  };
}
