import { existsSync, readFileSync } from "node:fs";
import { realpath, writeFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { planInstall, type InstallPlan } from "../install/detect.ts";
import { scenarioPlaywright, playwrightMismatch, playwrightPeerRange, suggested, type InstalledPlaywright } from "../playwright/version.ts";
import { ownPlaywright } from "../playwright/own-playwright.ts";
import { ownPlaywrightNote, ownWrites } from "./own-folder.ts";
import { machineVersions, proverBin, proverBins, resolvePackageManager, upTo, type MachineVersions } from "../install/package-manager.ts";
import { detectApp } from "./detect.ts";
import { findAppModel, type AppModel } from "./app-model.ts";
import { exampleTranscript, exampleTurn } from "./example-transcript.ts";
import { gitTopLevel, installedVersion, readAppFolder, readPackageJson, reader } from "./folder.ts";
import { findProviderSdks } from "./manifests.ts";
import { chooseProvider } from "./provider-choice.ts";
import { findProviderUrls } from "./provider-urls.ts";
import { providerConfigLines, providerDetected, providerNotes } from "./provider-lines.ts";
import { addDevDependency, describeManager, playwrightBin, withPinnedStart } from "./manager.ts";
import { basePathNote, choiceLines, configChoices, servedPath, serviceChoiceLines } from "./choices.ts";
import { withOutputsIgnored } from "./gitignore.ts";
import { firstTestTitle, renderConfig, renderExample } from "./templates.ts";
import { baseRef } from "./base-ref.ts";
import { tryCommands, type TryCommands } from "./try-commands.ts";
import { triedApp } from "./try-config.ts";
import {
  configFile,
  exampleFile,
  readIfExists,
  refuseExisting,
  scriptName,
  transcriptFile,
  withProverScript,
  writeNewFile,
} from "./write.ts";

export interface InitResult {
  /** Files written or changed, relative to cwd, in the order written. */
  readonly written: ReadonlyArray<string>;
  /** What was detected, one line each, for the CLI to print, e.g. "package manager: npm (no lockfile)". */
  readonly detected: ReadonlyArray<string>;
  /** Things the user must know or do, e.g. that init could not tell the port. */
  readonly notes: ReadonlyArray<string>;
  /**
   * The command that proves a fix with the example, for this package manager, against the repository's
   * default branch, picking the first test when the example holds two, e.g.
   * `npx prove-scenario --base master --head HEAD --grep "the app opens" scenarios/example.e2e.ts`.
   */
  readonly proveCommand: string;
  /** The command that runs the example with Playwright itself, for this package manager, e.g. "pnpm exec playwright test -c scenarios.config.ts". */
  readonly exampleCommand: string;
  /** The install and the start init tried before writing them, one line each that worked. */
  readonly tried: ReadonlyArray<string>;
  /** For each of them that failed: what failed, its output and the fix. Empty when both worked. */
  readonly failed: ReadonlyArray<string>;
}

/** What initScenarios reads of the machine, and how it tries the commands it writes. */
export interface InitOptions {
  /** The package managers' versions on PATH. */
  readonly machine?: MachineVersions;
  /** The @playwright/test a proof would run (see scenarioPlaywright). */
  readonly findPlaywright?: () => InstalledPlaywright | undefined;
  /** Runs the install and the start before they are written (see tryCommands). */
  readonly tryCommands?: TryCommands;
  /** Prints a line as a long step begins. */
  readonly progress?: (line: string) => void;
}

/** What `install: "auto"` runs for the app in `dir`, by the prover's own rule, and a note when it cannot tell. */
function autoInstall(
  dir: string,
  top: string,
  machine: MachineVersions,
): { readonly plan: InstallPlan; readonly text: string; readonly note: string | undefined } {
  const plan = planInstall("auto", dir, top, machine);
  if (plan.kind === "skip") return { plan, text: `nothing (${plan.reason})`, note: undefined };
  if (plan.kind === "unknown")
    return {
      plan,
      text: "cannot tell which package manager version installs it",
      note: `install: "auto" cannot tell which package manager version installs the app: ${plan.detail} in ${configFile}.`,
    };
  if (plan.label === "npm install") return { plan, text: "npm install (no lockfile)", note: undefined };
  return { plan, text: plan.cwd === dir ? plan.label : `${plan.label} in ${relative(dir, plan.cwd)}`, note: undefined };
}

/** Where scenario-prover's docs/config.md is from `dir`: in the nearest node_modules up to `top` that holds the package. */
function docsPath(dir: string, top: string): string {
  const installed = upTo(dir, top).find((folder) => existsSync(join(folder, "node_modules", "scenario-prover", "package.json")));
  return relative(dir, join(installed ?? dir, "node_modules", "scenario-prover", "docs", "config.md"))
    .split(sep)
    .join("/");
}

/** Whether `name` is in the dependencies or devDependencies of package.json. */
function dependsOn(packageJson: Readonly<Record<string, unknown>>, name: string): boolean {
  return ["dependencies", "devDependencies"].some((key) => {
    const deps = packageJson[key];
    return typeof deps === "object" && deps !== null && name in deps;
  });
}

/** Whether a package.json from `dir` up to `top` (a workspace's root) depends on `name`, so the config can import it. */
function dependsOnUpTo(dir: string, top: string, name: string): boolean {
  return upTo(dir, top).some((folder) => {
    const file = join(folder, "package.json");
    if (!existsSync(file)) return false;
    try {
      return dependsOn(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>, name);
    } catch {
      return false;
    }
  });
}

/**
 * Writes a starter config and example scenario for the app in `cwd` (holding its package.json), and
 * when the app lists a model provider's SDK or its source names a provider's URL, the config's lines
 * that point it at the replay agent and an example transcript; adds the prove-scenario script and the .gitignore lines. Before writing,
 * runs the install and the start it writes in the app's folder (`options.tryCommands`), and gives
 * what failed with its output and fix. Writes nothing and throws InitRefused when one of those
 * files exists, or InitFailed for a missing or unusable package.json. With a @playwright/test
 * outside the peer range, it writes where the scenarios can have their own (see ownPlaywright) and
 * notes the command.
 */
export async function initScenarios(cwd: string, options: InitOptions = {}): Promise<InitResult> {
  const { machine = machineVersions, findPlaywright = () => scenarioPlaywright(join(cwd, configFile)), progress = () => {} } = options;
  const packageJson = await readPackageJson(cwd);
  const sdks = findProviderSdks(packageJson.value, reader(cwd));
  const dir = await realpath(cwd);
  const { routedHostsOf } = await import("../../replay-agent/index.ts");
  const urls = await findProviderUrls(dir, routedHostsOf);
  const top = await gitTopLevel(dir);
  const playwright = findPlaywright();
  const mismatch = playwright === undefined ? undefined : playwrightMismatch(playwright);
  const own = mismatch === undefined ? undefined : ownPlaywright(dir, top ?? dir, machine);
  const writes = ownWrites(dir, own);
  refuseExisting(
    writes.dir,
    sdks.length === 0 && urls.length === 0 ? [configFile, exampleFile] : [configFile, exampleFile, transcriptFile],
  );
  const run = resolvePackageManager(dir, top ?? dir, machine);
  const detected = detectApp(readAppFolder(dir, top ?? dir, packageJson.value));
  const detection = {
    ...detected,
    start: withPinnedStart(detected.start, run),
    services: { ...detected.services, prepare: detected.services.prepare.map((line) => withPinnedStart(line, run)) },
    processes: {
      ...detected.processes,
      processes: detected.processes.processes.map((line) => withPinnedStart(line, run)),
    },
  };
  const { manager, start } = detection;
  const root = top === undefined ? "." : relative(top, dir).split(sep).join("/") || ".";
  const install = autoInstall(dir, top ?? dir, machine);
  const portUnknown = start.port.kind === "unknown" ? start.port.why : undefined;
  const provider = chooseProvider(sdks, urls, routedHostsOf, (name) => installedVersion(dir, top ?? dir, name));
  const model: AppModel = provider === undefined ? { kind: "none" } : await findAppModel(dir, provider.transcript);

  const notes: string[] = [];
  if (top === undefined) {
    notes.push(
      `${dir} is not in a git repository: prove-scenario compares two commits of the app, so put it in one (git init, then commit) before proving a fix.`,
    );
  }
  if (portUnknown !== undefined) {
    notes.push(
      `Could not tell how the server gets its port (${portUnknown}): it must listen on the PORT environment variable, or put {port} into app.start in ${configFile}.`,
    );
  }
  const base = await baseRef(top);
  if (install.note !== undefined) notes.push(install.note);
  notes.push(...basePathNote(detection));
  notes.push(...detection.services.notes);
  if (detection.processes.together !== undefined) notes.push(`In ${configFile}, ${detection.processes.together}.`);
  if (provider !== undefined) notes.push(...providerNotes(provider, model));
  const scripts = packageJson.value.scripts as Readonly<Record<string, unknown>>;
  const addScript = manager.manager !== "pnpm" && scripts[scriptName] === undefined && writes.dir === dir;
  const prover = proverBin(manager.manager, run);
  if (manager.manager === "pnpm") {
    const runs =
      prover === proverBins.npm ? `npx runs the installed bin as \`${prover}\`` : `pnpm runs the installed bin for \`${prover}\` itself`;
    notes.push(
      `No "${scriptName}" script added to package.json: ${runs}, ` +
        'and a script of that name would make pnpm print "[ELIFECYCLE] Command failed with exit code 1." after every "not proved" verdict.',
    );
  } else if (scripts[scriptName] !== undefined) {
    notes.push(`package.json already has a "${scriptName}" script; it was left as it is.`);
  }
  const add = (spec: string) => addDevDependency(manager.manager, run, dir, packageJson.value, spec);
  // In a package of the scenarios' own, @playwright/test is among its dependencies, and npx finds it.
  const exampleCommand = `${writes.cd}${writes.dir === dir ? playwrightBin(manager.manager, run) : "npx playwright"} test -c ${configFile}`;
  /** Why the example's command needs @playwright/test in package.json: undefined where it finds the bin without it. */
  const ownBinsOnly =
    writes.dir === dir && (manager.manager === "pnpm" || manager.manager === "yarn") && !dependsOnUpTo(dir, top ?? dir, "@playwright/test")
      ? manager.manager === "pnpm"
        ? "pnpm installs it with scenario-prover, as its peer, but links the commands of the app's own dependencies only"
        : "yarn installs no peer dependency, and links the commands of the app's own dependencies only"
      : undefined;
  // In a package of the scenarios' own, mockttp goes there with scenario-prover, in the command of the note below.
  const ownRoute = provider?.route !== undefined && writes.dir !== dir;
  if (provider?.route !== undefined && !ownRoute && !dependsOnUpTo(dir, top ?? dir, "mockttp")) {
    notes.push(
      `app.route needs the mockttp package, which scenario-prover loads only for the route: run \`${add("mockttp@4.6.3")}\` before running the example.`,
    );
  }
  if (own !== undefined && mismatch !== undefined) {
    notes.push(ownPlaywrightNote(ownRoute ? ownPlaywright(dir, top ?? dir, machine, ["mockttp@4.6.3"]) : own, mismatch));
  } else if (!dependsOnUpTo(dir, top ?? dir, "scenario-prover")) {
    const spec = ownBinsOnly ? `scenario-prover @playwright/test@${suggested(playwrightPeerRange())}` : "scenario-prover";
    notes.push(
      `scenario-prover is not in package.json's dependencies: run \`${add(spec)}\` so ${configFile} can import scenario-prover/harness` +
        (ownBinsOnly ? `, and \`${exampleCommand}\` finds the playwright command (${ownBinsOnly}).` : "."),
    );
  } else if (playwright === undefined) {
    // Where scenario-prover is installed, its peer is looked for beside it, as a proof does.
    notes.push(
      `@playwright/test cannot be found beside scenario-prover: it is a peer dependency, which yarn (and npm or pnpm set not to) does not install with it. ` +
        `Run \`${add(`@playwright/test@${suggested(playwrightPeerRange())}`)}\` before running the example.`,
    );
  } else if (ownBinsOnly !== undefined) {
    notes.push(
      `@playwright/test is not in package.json's dependencies, so \`${exampleCommand}\` fails with "playwright: not found": ${ownBinsOnly}. ` +
        `Run \`${add(`@playwright/test@${(mismatch === undefined ? playwright.version : undefined) ?? suggested(playwrightPeerRange())}`)}\` before running the example.`,
    );
  }

  const providerLines = provider === undefined ? undefined : providerConfigLines(provider);
  const tried = await (options.tryCommands ?? tryCommands)(
    {
      install: install.plan,
      start: start.command,
      dir,
      ...triedApp(configChoices(detection), providerLines?.variables ?? {}),
      where: (folder) => relative(dir, folder).split(sep).join("/") || ".",
    },
    progress,
  );

  const config = renderConfig({
    root,
    install: install.text,
    portUnknown,
    docs: docsPath(writes.dir, top ?? dir),
    ...configChoices(detection),
    provider: providerLines,
  });
  const transcript =
    provider === undefined
      ? undefined
      : await exampleTranscript(provider.transcript, transcriptFile, model.kind === "found" ? model.model : undefined);
  // Reports are written under the checkout's root, so that is where they are ignored.
  const gitignoreFile = join(top ?? dir, ".gitignore");
  const gitignore = withOutputsIgnored(await readIfExists(gitignoreFile), (top ?? dir) === dir);
  const written = await writes.start();
  await writeNewFile(join(writes.dir, configFile), config);
  written.push(writes.shown(configFile));
  const example =
    provider === undefined || transcript === undefined
      ? undefined
      : { path: `./${basename(transcriptFile)}`, sdk: provider.caller, model: transcript.model, ...exampleTurn };
  await writeNewFile(join(writes.dir, exampleFile), renderExample(servedPath(detection), example));
  written.push(writes.shown(exampleFile));
  if (transcript !== undefined) {
    await writeNewFile(join(writes.dir, transcriptFile), transcript.text);
    written.push(writes.shown(transcriptFile));
  }
  if (addScript) {
    await writeFile(join(dir, "package.json"), withProverScript(packageJson.text, packageJson.value));
    written.push("package.json");
  }
  if (gitignore !== undefined) {
    await writeFile(gitignoreFile, gitignore);
    written.push(relative(dir, gitignoreFile).split(sep).join("/"));
  }

  const rootWhy =
    top === undefined ? "not in a git repository" : root === "." ? "the repository's root" : "relative to the repository's root";
  return {
    written,
    detected: [
      `package manager: ${describeManager(manager, run, machine(manager.manager))}`,
      `install: ${install.text}`,
      ...choiceLines(detection),
      ...serviceChoiceLines(detection),
      `app root: ${root} (${rootWhy})`,
      ...(provider === undefined ? [] : providerDetected(provider, model)),
    ],
    notes,
    // A proof runs one test: with the transcript's test beside it, the command picks the first, the one to make reproduce the bug.
    proveCommand: `${writes.cd}${prover} --base ${base} --head HEAD${example === undefined ? "" : ` --grep ${JSON.stringify(firstTestTitle)}`} ${exampleFile}`,
    exampleCommand,
    tried: tried.worked,
    failed: tried.failed,
  };
}
