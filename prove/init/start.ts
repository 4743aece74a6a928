import { runScript, type PackageManager } from "./manager.ts";

/** How the started server learns the free port the harness picked (PORT in its environment, `{port}` in the command). */
export type PortWay =
  | { readonly kind: "flags"; readonly flags: string; readonly why: string }
  | { readonly kind: "env"; readonly why: string }
  | { readonly kind: "unknown"; readonly why: string };

export interface StartPlan {
  /** The package.json script that starts the server. */
  readonly script: "dev" | "start";
  /** app.start: the script run through the package manager, with the port flags when it needs them. */
  readonly command: string;
  readonly port: PortWay;
}

/** Dev servers that listen on localhost's first address unless told otherwise: they get the host and port as flags. */
const viteFlags = "--host 127.0.0.1 --port {port} --strictPort";
const astroFlags = "--host 127.0.0.1 --port {port}";

/** Tools that read PORT themselves, by the name a person knows them by. */
const readsPortItself: Readonly<Record<string, string>> = {
  next: "Next.js",
  "react-scripts": "Create React App",
  nuxt: "Nuxt",
  nuxi: "Nuxt",
  remix: "Remix",
  "remix-serve": "Remix",
};

/** Commands that run a file: the file tells whether the server reads PORT. */
const fileRunners = new Set(["node", "nodemon", "tsx", "ts-node", "ts-node-dev", "bun"]);
/** Words of a file runner's command line that are not the file: subcommands. */
const runnerSubcommands = new Set(["watch", "run"]);
/** What a script's command may be wrapped in before the tool's name. */
const wrappers = new Set(["cross-env", "env", "npx", "exec"]);
const sourceExtensions = ["", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"];

/** `process.env.PORT`, `process.env["PORT"]`, `env.PORT`, or `const { PORT } = process.env`. */
const readsPortPattern = /\benv\s*(?:\.\s*PORT\b|\[\s*["'`]PORT["'`]\s*\])|\{[^}]*\bPORT\b[^}]*\}\s*=\s*(?:process\s*\.\s*)?env\b/;

/** The words of the command that starts the server: the last of `a && b`, before any pipe, without env assignments and wrappers. */
function serverWords(script: string): string[] {
  const last = script.split(/&&|\|\||;/).at(-1) ?? "";
  const words = (last.split("|")[0] ?? "").trim().split(/\s+/).filter((word) => word !== "");
  while (words[0] !== undefined && (/^\w+=/.test(words[0]) || wrappers.has(words[0]))) words.shift();
  return words;
}

/** Whether the first file among `args` that exists reads PORT; `read` gives a file's text relative to the app. */
function fileReadsPort(args: ReadonlyArray<string>, script: string, read: (file: string) => string | undefined): PortWay {
  for (const arg of args) {
    if (arg.startsWith("-") || runnerSubcommands.has(arg)) continue;
    for (const extension of sourceExtensions) {
      const text = read(`${arg}${extension}`);
      if (text === undefined) continue;
      const file = `${arg}${extension}`;
      return readsPortPattern.test(text)
        ? { kind: "env", why: `${file} reads the PORT environment variable` }
        : { kind: "unknown", why: `${file} does not read process.env.PORT` };
    }
  }
  return { kind: "unknown", why: `found no server file in \`${script}\`` };
}

/** How the server that `script` (a package.json script's text) starts gets its port. */
export function portWay(script: string, read: (file: string) => string | undefined): PortWay {
  const [command = "", ...args] = serverWords(script);
  const tool = command.split("/").at(-1) ?? "";
  const sub = args[0];
  const servesBy = (subcommands: ReadonlyArray<string>) => sub === undefined || sub.startsWith("-") || subcommands.includes(sub);
  if ((tool === "vite" && servesBy(["dev", "serve", "preview"])) || (tool === "remix" && sub === "vite:dev")) {
    return { kind: "flags", flags: viteFlags, why: "Vite takes the port as a flag" };
  }
  if (tool === "astro" && sub !== undefined && ["dev", "preview"].includes(sub)) {
    return { kind: "flags", flags: astroFlags, why: "Astro takes the port as a flag" };
  }
  if (tool === "webpack-dev-server" || ((tool === "webpack" || tool === "webpack-cli") && sub !== undefined && ["serve", "server", "s"].includes(sub))) {
    return { kind: "flags", flags: "--port {port}", why: "webpack-dev-server takes the port as a flag" };
  }
  const framework = readsPortItself[tool];
  if (framework !== undefined) return { kind: "env", why: `${framework} reads the PORT environment variable` };
  if (fileRunners.has(tool)) return fileReadsPort(args, script, read);
  return { kind: "unknown", why: `\`${script}\` is not a server init knows` };
}

/** app.start from package.json's scripts (`dev`, else `start`); undefined when it has neither. */
export function planStart(scripts: Readonly<Record<string, unknown>>, manager: PackageManager, read: (file: string) => string | undefined): StartPlan | undefined {
  const script = (["dev", "start"] as const).find((name) => typeof scripts[name] === "string" && scripts[name].trim() !== "");
  if (script === undefined) return undefined;
  const port = portWay(String(scripts[script]).replace(/\s+/g, " "), read);
  return { script, command: runScript(manager, script, port.kind === "flags" ? port.flags : undefined), port };
}
