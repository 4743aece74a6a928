import type { AppFiles } from "./detect.ts";
import { runScript, type PackageManager } from "./manager.ts";
import { planCommand, portWay, type BinRunner, type StartPlan } from "./start.ts";

/** A process init writes beside the web server in app.start, with why. */
export interface ProcessLine {
  readonly name: string;
  readonly command: string;
  readonly why: string;
  /** The line it logs once ready, as a regular expression's source, and the file that logs it; undefined when init found none. */
  readonly ready: { readonly log: string; readonly file: string } | undefined;
}

/** The app's other processes: the ones init writes, and a comment and a note for a start it cannot split. */
export interface ProcessesPlan {
  /** The server's name in app.start when there are other processes: "web", or the name `concurrently -n` gives it. */
  readonly web: string;
  /** The server's command, port and why, when init took it out of a `concurrently` script; undefined keeps the start's. */
  readonly server: Pick<StartPlan, "command" | "port" | "why"> | undefined;
  readonly processes: ReadonlyArray<ProcessLine>;
  /** A config comment above app.start, and the note saying the same; undefined when there is nothing to say. */
  readonly together: string | undefined;
}

/** A worker's script names, the start script's own first (`dev:worker` beside `dev`). */
const workerScripts = (start: string) => [
  `${start}:worker`,
  `worker:${start}`,
  "worker",
  "workers",
  "start:worker",
  "dev:worker",
  "worker:dev",
];

/** Runners whose first argument that is not a flag is the file they run. */
const fileRunners = new Set(["node", "tsx", "ts-node", "bun", "nodemon"]);
const extensions = ["", ".js", ".mjs", ".cjs", ".ts", ".mts"];

/** What a log line that says "ready" says. */
const readyWords = /\b(ready|listening|started|waiting|running)\b/i;

/** A string literal's text as a regular expression's source, up to its first template placeholder. */
const literalPattern = (text: string) => (text.split("${")[0] ?? "").trim().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The line a worker's file logs once it is ready (`console.log("worker ready")`), if init can tell. */
function readyLog(script: string, read: (file: string) => string | undefined): ProcessLine["ready"] {
  const words = script.trim().split(/\s+/);
  const runner = words.findIndex((word) => fileRunners.has(word.split("/").at(-1) ?? ""));
  if (runner === -1) return undefined;
  const arg = words.slice(runner + 1).find((word) => !word.startsWith("-") && word !== "watch");
  if (arg === undefined) return undefined;
  for (const extension of extensions) {
    const file = `${arg}${extension}`;
    const text = read(file);
    if (text === undefined) continue;
    for (const match of text.matchAll(/\b(?:console|logger|log)\s*\.\s*(?:log|info)\s*\(\s*(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
      const said = match[2] ?? "";
      const pattern = literalPattern(said);
      if (readyWords.test(said) && pattern !== "") return { log: pattern, file };
    }
    return undefined;
  }
  return undefined;
}

/** concurrently's options that take a value. */
const valued = new Set([
  "-n",
  "--names",
  "-c",
  "--prefix-colors",
  "-p",
  "--prefix",
  "-s",
  "--success",
  "-t",
  "--timestamp-format",
  "-m",
  "--max-processes",
  "--name-separator",
  "--hide",
  "--restart-tries",
  "--restart-after",
  "--default-input-target",
  "-P",
  "--passthrough-arguments",
]);

/** The commands of a `concurrently` script, and the names its -n gives them. */
function concurrentlyParts(text: string): { readonly names: ReadonlyArray<string>; readonly parts: ReadonlyArray<string> } {
  const words = [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => ({
    word: match[1] ?? match[2] ?? match[3] ?? "",
    quoted: match[3] === undefined,
  }));
  const at = words.findIndex((entry) => !entry.quoted && /(^|\/)concurrently$/.test(entry.word));
  let names: string[] = [];
  const parts: string[] = [];
  for (let index = at + 1; index < words.length; index++) {
    const { word, quoted } = words[index] ?? { word: "", quoted: false };
    if (quoted || !word.startsWith("-")) {
      parts.push(word);
      continue;
    }
    const [flag, value] = word.split("=", 2);
    if (!valued.has(flag ?? "")) continue;
    const given = value ?? words[++index]?.word ?? "";
    if (flag === "-n" || flag === "--names") names = given.split(",").map((name) => name.trim());
  }
  return { names, parts };
}

/** A process's name as an object key needs no quotes for: letters, digits and _. */
const keyName = (name: string) => (/^[A-Za-z_]\w*$/.test(name) ? name : undefined);

/** A part of a `concurrently` script as app.start runs it: `npm:worker` through the package manager, a command by planCommand. */
function concurrentlyPart(
  part: string,
  all: Readonly<Record<string, unknown>>,
  manager: PackageManager,
  runner: BinRunner,
  read: (file: string) => string | undefined,
) {
  const script = /^(?:npm|pnpm|yarn|bun):([\w:.-]+)$/.exec(part)?.[1];
  if (script === undefined) {
    const planned = planCommand(part, runner, read);
    return planned === undefined ? undefined : { ...planned, name: undefined, text: part };
  }
  const text = all[script];
  if (typeof text !== "string") return undefined;
  const port = portWay(text, read);
  const command = runScript(manager, script, port.kind === "flags" ? port.flags : undefined);
  return {
    command,
    port,
    why: `the ${script} script \`${text}\`${port.kind === "unknown" ? "" : `; ${port.why}`}`,
    name: script.split(":").at(-1),
    text,
  };
}

/**
 * The server and the other processes of a `concurrently` script, when its shape is clear: every part
 * one plain command or a script, exactly one of them a server init knows, each with a name of its own.
 */
function splitConcurrently(
  name: string,
  startText: string,
  all: Readonly<Record<string, unknown>>,
  manager: PackageManager,
  runner: BinRunner,
  read: (file: string) => string | undefined,
): ProcessesPlan | undefined {
  const { names, parts } = concurrentlyParts(startText);
  const planned = parts.map((part) => concurrentlyPart(part, all, manager, runner, read));
  if (parts.length < 2 || planned.some((part) => part === undefined)) return undefined;
  const resolved = planned.filter((part) => part !== undefined);
  const servers = resolved.filter((part) => part.port.kind !== "unknown");
  const server = servers[0];
  if (servers.length !== 1 || server === undefined) return undefined;
  const named = resolved.map((part, index) =>
    keyName(names.length === parts.length ? (names[index] ?? "") : part === server ? "web" : (part.name ?? "worker")),
  );
  const keys = named.filter((name) => name !== undefined);
  if (keys.length !== parts.length || new Set(keys).size !== keys.length || keys.includes("replay")) return undefined;
  const serverAt = resolved.indexOf(server);
  return {
    web: keys[serverAt] ?? "web",
    server: { command: server.command, port: server.port, why: `the server the ${name} script starts through concurrently: ${server.why}` },
    processes: resolved.flatMap((part, index) =>
      part === server
        ? []
        : [
            {
              name: keys[index] ?? "",
              command: part.command,
              why: `started by the ${name} script through concurrently: ${part.why}`,
              ready: readyLog(part.text, read),
            },
          ],
    ),
    together: undefined,
  };
}

/** The worker init writes beside the web server, or the comment for a dev script that runs several commands at once. */
export function planProcesses(app: AppFiles, start: StartPlan, manager: PackageManager, runner: BinRunner): ProcessesPlan {
  const scripts = app.packageJson.scripts;
  const all = typeof scripts === "object" && scripts !== null ? (scripts as Record<string, unknown>) : {};
  const script = all[start.script];
  const startText = typeof script === "string" ? script : "";
  const none = { web: "web", server: undefined, processes: [], together: undefined };
  if (/^\s*(npx\s+)?concurrently\b/.test(startText)) {
    const split = splitConcurrently(start.script, startText, all, manager, runner, app.read);
    if (split !== undefined) return split;
    return {
      ...none,
      together:
        `the ${start.script} script \`${startText}\` runs several commands at once through concurrently, and init cannot tell which is the server or how each runs, so app.start runs them as one process; ` +
        'to give each its own readiness and its own log, write them as named processes, the server first: start: { web: "…", worker: "…" } (docs/config.md)',
    };
  }
  const name = workerScripts(start.script).find((candidate) => typeof all[candidate] === "string");
  // A start that runs the worker already (`npm run worker & next dev`) keeps it.
  if (name === undefined || startText.includes(name)) return none;
  const text = String(all[name]);
  return {
    ...none,
    processes: [
      {
        name: "worker",
        command: runScript(manager, name, undefined),
        why: `the ${name} script \`${text}\``,
        ready: readyLog(text, app.read),
      },
    ],
  };
}
