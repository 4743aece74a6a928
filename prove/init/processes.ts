import type { AppFiles } from "./detect.ts";
import { runScript, type PackageManager } from "./manager.ts";
import type { StartPlan } from "./start.ts";

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

/** The worker init writes beside the web server, or the comment for a dev script that runs several commands at once. */
export function planProcesses(app: AppFiles, start: StartPlan, manager: PackageManager): ProcessesPlan {
  const scripts = app.packageJson.scripts;
  const all = typeof scripts === "object" && scripts !== null ? (scripts as Record<string, unknown>) : {};
  const script = all[start.script];
  const startText = typeof script === "string" ? script : "";
  if (/^\s*(npx\s+)?concurrently\b/.test(startText)) {
    return {
      processes: [],
      together:
        `the ${start.script} script \`${startText}\` runs several commands at once through concurrently, which app.start runs as one process; ` +
        'to give each its own readiness and its own log, write them as named processes, the web server first: start: { web: "…", worker: "…" } (docs/config.md)',
    };
  }
  const name = workerScripts(start.script).find((script) => typeof all[script] === "string");
  if (name === undefined) return { processes: [], together: undefined };
  const text = String(all[name]);
  // A start that runs the worker already (`npm run worker & next dev`) keeps it.
  if (startText.includes(name)) return { processes: [], together: undefined };
  return {
    processes: [
      {
        name: "worker",
        command: runScript(manager, name, undefined),
        why: `the ${name} script \`${text}\``,
        ready: readyLog(text, app.read),
      },
    ],
    together: undefined,
  };
}
