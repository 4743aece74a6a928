import { runScript, type PackageManager } from "./manager.ts";

/** How the started server learns the free port the harness picked (PORT in its environment, `{port}` in the command). */
export type PortWay =
  | { readonly kind: "flags"; readonly flags: string; readonly why: string }
  | { readonly kind: "env"; readonly why: string }
  | { readonly kind: "unknown"; readonly why: string };

export interface StartPlan {
  /** The package.json script that starts the server. */
  readonly script: "dev" | "start";
  /** app.start: the script through the package manager, or its command by the tool's bin, with port flags if needed. */
  readonly command: string;
  readonly port: PortWay;
  /** Why the command is what it is, e.g. "next dev takes the port as -p". */
  readonly why: string;
  /** The script's plain command without the package manager (`node server.js`); undefined when it is not one plain command. */
  readonly asWritten?: string;
}

/** How a flag of a dev server's own is written: with a value, with an optional value, or alone. */
type FlagShape = "value" | "optional" | "alone";

/** A dev server that takes the port as flags. */
interface FlagServer {
  readonly flags: string;
  readonly why: string;
  /** Flags that set where it listens or open a browser: dropped when init rebuilds the command with its own. */
  readonly listenFlags: Readonly<Record<string, FlagShape>>;
}

/** Vite and the dev servers built on it listen on localhost's first address unless told otherwise: they get the host and the port. */
const viteServer = (why: string): FlagServer => ({
  flags: "--host 127.0.0.1 --port {port} --strictPort",
  why,
  listenFlags: { "--host": "optional", "--port": "value", "--strictPort": "alone", "--open": "optional" },
});
const astroServer: FlagServer = {
  flags: "--host 127.0.0.1 --port {port}",
  why: "Astro takes the port as a flag",
  listenFlags: { "--host": "optional", "--port": "value", "--open": "alone" },
};
// next dev listens on every address; -p wins over PORT and over a port the script names.
const nextServer: FlagServer = {
  flags: "-p {port}",
  why: "next takes the port as -p",
  listenFlags: { "-p": "value", "--port": "value", "-H": "value", "--hostname": "value" },
};
// nuxt dev listens on localhost, which may be ::1 only.
const nuxtServer: FlagServer = {
  flags: "--host 127.0.0.1 --port {port}",
  why: "nuxt dev takes the port as a flag",
  listenFlags: { "--host": "optional", "-p": "value", "--port": "value", "--open": "alone", "-o": "alone" },
};
const webpackServer: FlagServer = {
  flags: "--port {port}",
  why: "webpack-dev-server takes the port as a flag",
  listenFlags: { "--port": "value" },
};

/** The flag server a tool and its first argument start, if any. */
function flagServer(tool: string, sub: string | undefined): FlagServer | undefined {
  const servesBy = (subcommands: ReadonlyArray<string>) => sub === undefined || sub.startsWith("-") || subcommands.includes(sub);
  if (tool === "vite" && servesBy(["dev", "serve", "preview"])) return viteServer("Vite takes the port as a flag");
  if (tool === "remix" && sub === "vite:dev") return viteServer("remix vite:dev takes the port as a flag");
  if (tool === "react-router" && sub === "dev") return viteServer("react-router dev takes the port as a flag");
  if (tool === "astro" && sub !== undefined && ["dev", "preview"].includes(sub)) return astroServer;
  if (tool === "next" && sub !== undefined && ["dev", "start"].includes(sub))
    return { ...nextServer, why: `next ${sub} takes the port as -p` };
  if ((tool === "nuxt" || tool === "nuxi") && sub === "dev") return nuxtServer;
  if (
    tool === "webpack-dev-server" ||
    ((tool === "webpack" || tool === "webpack-cli") && sub !== undefined && ["serve", "server", "s"].includes(sub))
  )
    return webpackServer;
  return undefined;
}

/** Tools that read PORT themselves, by the name a person knows them by. */
const readsPortItself: Readonly<Record<string, string>> = {
  next: "Next.js",
  "react-scripts": "Create React App",
  nuxt: "Nuxt",
  nuxi: "Nuxt",
  remix: "Remix",
  "remix-serve": "Remix",
  "react-router-serve": "React Router",
};

const sourceExtensions = ["", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"];
/** Commands that run a file, with the extensions its name may leave out: the file tells whether the server reads PORT. */
const fileRunners: Readonly<Record<string, ReadonlyArray<string>>> = {
  node: sourceExtensions,
  nodemon: sourceExtensions,
  tsx: sourceExtensions,
  "ts-node": sourceExtensions,
  "ts-node-dev": sourceExtensions,
  bun: sourceExtensions,
  python: [""],
  python3: [""],
};
/** Words of a file runner's command line that are not the file: subcommands. */
const runnerSubcommands = new Set(["watch", "run"]);
/** What a script's command may be wrapped in before the tool's name. */
const wrappers = new Set(["cross-env", "env", "npx", "exec"]);
/**
 * `process.env.PORT`, `process.env["PORT"]`, `env.PORT`, or `const { PORT } = process.env`; Python's
 * `os.environ["PORT"]`, `os.environ.get("PORT")`, `os.getenv("PORT")`.
 */
const readsPortPattern =
  /\benv\s*(?:\.\s*PORT\b|\[\s*["'`]PORT["'`]\s*\])|\{[^}]*\bPORT\b[^}]*\}\s*=\s*(?:process\s*\.\s*)?env\b|\benviron\s*(?:\[\s*["']PORT["']\s*\]|\.\s*get\s*\(\s*["']PORT["'])|\bgetenv\s*\(\s*["']PORT["']/;

/** The words of the command that starts the server: the last of `a && b`, before any pipe, without env assignments and wrappers. */
function serverWords(script: string): string[] {
  const last = script.split(/&&|\|\||;/).at(-1) ?? "";
  const words = (last.split("|")[0] ?? "")
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  while (words[0] !== undefined && (/^\w+=/.test(words[0]) || wrappers.has(words[0]))) words.shift();
  return words;
}

/** Whether the first file among `args` (its name without one of `extensions`) that exists reads PORT; `read` gives a file's text relative to the app. */
function fileReadsPort(
  args: ReadonlyArray<string>,
  extensions: ReadonlyArray<string>,
  script: string,
  read: (file: string) => string | undefined,
): PortWay {
  for (const arg of args) {
    if (arg.startsWith("-") || runnerSubcommands.has(arg)) continue;
    for (const extension of extensions) {
      const text = read(`${arg}${extension}`);
      if (text === undefined) continue;
      const file = `${arg}${extension}`;
      return readsPortPattern.test(text)
        ? { kind: "env", why: `${file} reads the PORT environment variable` }
        : { kind: "unknown", why: `${file} does not read ${file.endsWith(".py") ? 'os.environ["PORT"]' : "process.env.PORT"}` };
    }
  }
  return { kind: "unknown", why: `found no server file in \`${script}\`` };
}

const toolOf = (command: string) => command.split("/").at(-1) ?? "";

/** How the server that `script` (a package.json script's text) starts gets its port. */
export function portWay(script: string, read: (file: string) => string | undefined): PortWay {
  const [command = "", ...args] = serverWords(script);
  const tool = toolOf(command);
  const server = flagServer(tool, args[0]);
  if (server !== undefined) return { kind: "flags", flags: server.flags, why: server.why };
  const framework = readsPortItself[tool];
  if (framework !== undefined) return { kind: "env", why: `${framework} reads the PORT environment variable` };
  const extensions = Object.hasOwn(fileRunners, tool) ? fileRunners[tool] : undefined;
  if (extensions !== undefined) return fileReadsPort(args, extensions, script, read);
  return { kind: "unknown", why: `\`${script}\` is not a server init knows` };
}

/** `args` without the flags in `drop` and their values (`--port 3000`, `--port=3000`, `--host`, `-p 3000`). */
function withoutFlags(args: ReadonlyArray<string>, drop: Readonly<Record<string, FlagShape>>): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    const name = arg.split("=")[0] ?? arg;
    const shape = drop[name];
    if (shape === undefined) {
      kept.push(arg);
      continue;
    }
    const next = args[index + 1];
    const takesNext = !arg.includes("=") && (shape === "value" || (shape === "optional" && next !== undefined && !next.startsWith("-")));
    if (takesNext) index++;
  }
  return kept;
}

/** The command that runs a package's bin from node_modules/.bin without a package manager script. */
export type BinRunner = "npx" | "yarn" | "bunx";

/** What a bin command does, by its runner, for the config's comment. */
const binRunBy: { readonly [R in BinRunner]: string } = {
  npx: "its tool run by npx from node_modules/.bin",
  yarn: "its tool run by `yarn <bin>`, which finds it under Plug'n'Play too",
  bunx: "its tool run by bunx from node_modules/.bin",
};

/**
 * A flag server's plain script run by its bin with init's port flags: `next dev -p 3000` becomes
 * `npx next dev -p {port}`. Undefined for anything else, which runs through the package manager.
 */
function binCommand(script: string, scripts: Readonly<Record<string, unknown>>, name: string, runner: BinRunner): string | undefined {
  const plain = plainCommand(script, scripts, name);
  if (plain === undefined) return undefined;
  const { assignments, command, args } = plain;
  const tool = toolOf(command);
  const server = flagServer(tool, args[0]);
  if (server === undefined) return undefined;
  return [...assignments, runner, tool, ...withoutFlags(args, server.listenFlags), server.flags].join(" ");
}

/** A script that is one plain command (no `&&`, pipe, quote or pre-script): its env assignments, command and arguments. */
function plainCommand(script: string, scripts: Readonly<Record<string, unknown>>, name: string) {
  if (/[&|;"'`$<>()\\]/.test(script) || scripts[`pre${name}`] !== undefined) return undefined;
  const words = script.trim().split(/\s+/);
  const assignments: string[] = [];
  while (words[0] !== undefined && /^\w+=/.test(words[0])) assignments.push(words.shift() ?? "");
  const [command, ...args] = words;
  return command === undefined ? undefined : { assignments, command, args };
}

/**
 * The script as it runs without the package manager, when it is one plain command: `node` and a
 * path run as written, a bin by `runner` (`npx tsx server.ts`). Undefined for anything else.
 */
function withoutManager(script: string, scripts: Readonly<Record<string, unknown>>, name: string, runner: BinRunner): string | undefined {
  const plain = plainCommand(script, scripts, name);
  if (plain === undefined) return undefined;
  const run = plain.command === "node" || plain.command.includes("/") ? [plain.command] : [runner, plain.command];
  return [...plain.assignments, ...run, ...plain.args].join(" ");
}

/**
 * A command as app.start runs it outside a package.json script (a part of a `concurrently` script): a
 * flag server by its bin with init's port flags, another plain command as written or by its bin.
 * Undefined when it is not one plain command.
 */
export function planCommand(
  text: string,
  runner: BinRunner,
  read: (file: string) => string | undefined,
): Pick<StartPlan, "command" | "port" | "why"> | undefined {
  const port = portWay(text, read);
  const bin = binCommand(text, {}, "", runner);
  if (bin !== undefined) return { command: bin, port, why: `\`${text}\`, ${binRunBy[runner]}; ${port.why}` };
  const command = withoutManager(text, {}, "", runner);
  if (command === undefined) return undefined;
  return { command, port, why: port.kind === "unknown" ? `\`${text}\`` : `\`${text}\`; ${port.why}` };
}

/** The Python servers init suggests a start script for, by their usual entry file. */
const otherServers: ReadonlyArray<readonly [file: string, command: string]> = [
  ["app.py", "python3 app.py"],
  ["main.py", "python3 main.py"],
  ["server.py", "python3 server.py"],
];

/** The start script to suggest for an app whose server is not Node's (`python3 app.py` beside app.py); undefined when init sees none. */
export function otherLanguageStart(
  read: (file: string) => string | undefined,
): { readonly file: string; readonly command: string } | undefined {
  const found = otherServers.find(([file]) => read(file) !== undefined);
  return found === undefined ? undefined : { file: found[0], command: found[1] };
}

/** app.start from package.json's scripts (`dev`, else `start`); undefined when it has neither. */
export function planStart(
  scripts: Readonly<Record<string, unknown>>,
  manager: PackageManager,
  runner: BinRunner,
  read: (file: string) => string | undefined,
): StartPlan | undefined {
  const script = (["dev", "start"] as const).find((name) => typeof scripts[name] === "string" && scripts[name].trim() !== "");
  if (script === undefined) return undefined;
  const text = String(scripts[script]).replace(/\s+/g, " ").trim();
  const port = portWay(text, read);
  const bin = binCommand(text, scripts, script, runner);
  if (bin !== undefined) return { script, command: bin, port, why: `the ${script} script \`${text}\`, ${binRunBy[runner]}; ${port.why}` };
  const command = runScript(manager, script, port.kind === "flags" ? port.flags : undefined);
  const asWritten = port.kind === "flags" ? undefined : withoutManager(text, scripts, script, runner);
  return { script, command, port, why: port.why, ...(asWritten === undefined ? {} : { asWritten }) };
}
