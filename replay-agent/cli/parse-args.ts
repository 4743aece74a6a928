import { parseArgs } from "node:util";
import { UsageError } from "../errors.ts";
import { descriptionFromFlags } from "../new/from-flags.ts";
import { thinkingProviders } from "../new/templates.ts";
import type { NewSource } from "../new/new-transcript.ts";
import { splitCommand } from "../record/split-command.ts";
import {
  newProviders,
  httpProviders,
  isStdioProvider,
  isWebSocketProvider,
  providers,
  type HttpProvider,
  type StdioProvider,
  type WebSocketProvider,
} from "../transcript/providers.ts";

export const usage = `Usage:
  replay-agent serve --transcript <file> [--port <n>]   serve an HTTP or WebSocket provider's transcript on 127.0.0.1 until SIGINT or SIGTERM
  replay-agent stdio --transcript <file> [--control-port <n>] [--notify <url>] [-- <the app's arguments>...]
                                                        be a stdio agent (jsonrpc-stdio, codex-app-server, codex-exec, claude-code)
                                                        on stdin/stdout, for an app to spawn; control routes on 127.0.0.1,
                                                        announced on stderr; the arguments after -- are the ones the app
                                                        passed, matched against the transcript's spawn line if it has one
  replay-agent record --provider <p> --upstream <url> --out <file> [--port <n>] [--no-timing]
                                                        record a real HTTP provider through a proxy on 127.0.0.1 until SIGINT or SIGTERM,
                                                        the time between its chunks as delay lines (none with --no-timing);
                                                        for openai-realtime (--upstream wss://api.openai.com), its WebSocket sessions
                                                        (the time before each server message as delay lines)
  replay-agent record --provider <p> --out <file> --agent '<command line>' [--no-timing] [-- <the app's arguments>...]
                                                        record a real stdio agent (jsonrpc-stdio, codex-app-server, codex-exec,
                                                        claude-code): the app spawns this in its place; it starts the --agent
                                                        command with the app's arguments after its own and records both ways,
                                                        the time the agent took before each line as delay lines (none with --no-timing)
  replay-agent check <file>                             validate a transcript and print a summary
  replay-agent new --provider <p> --user <text> --reply <text> [--model <m>] [--thinking <text>] [--pause <name>@<n>]...
                   [--cut <name>@<n>]... [--tool '<name> <json>']... [--before-tool <text>] [--fail <status>]
                   [--background '<lane>=<reply>']... [--no-stream] [--no-usage] [--tokens-per-second <n>]
                   [--first-token-ms <n>] [--out <file>]
  replay-agent new --from <description.json> [--out <file>]
                                                        write a transcript from a short description,
                                                        to stdout or to a new file --out
  replay-agent --help, replay-agent <command> --help    print this usage

new: --provider is one of ${newProviders.join(", ")}.
The request must carry --model (each provider has a default) and end with the --user message; the
reply streams one token per delta. --thinking streams the model's thinking first
(${thinkingProviders}).
--pause name@n holds after the answer's n-th delta (@0: before it starts, the only one a --no-stream answer takes); --cut name@n writes the n-th delta in two writes, holding at pause name
between them (an event cut across two reads). --tool answers with a tool call first; the app's
request with the tool's result then gets the --reply (--before-tool: text streamed before the
call). --fail answers the first request with that error status; with --reply, the retry gets the
reply. --background lane=reply answers any number of requests that do not stream, in a lane of
their own (a chat title, say). openai-chat sends a usage chunk and expects
stream_options.include_usage unless --no-usage. --tokens-per-second and --first-token-ms set the
transcript's pace: each answer's first frame waits --first-token-ms, each later frame 1000 /
--tokens-per-second ms (one frame is one token). --from reads turns, tools with results, pauses
and lanes from a JSON file.
opencode writes a whole session: the event stream (GET /event, held open), session.create() and
session.prompt(), each prompt's events down to session.idle before its response; --model is
<provider>/<model>; OpenCode runs a --tool itself and goes on to the --reply in the same prompt.
It takes no --fail, --no-stream or --background. For the session providers (openai-realtime, jsonrpc-stdio,
codex-app-server, codex-exec, claude-code) new writes the session's opening and one turn per
--user message, answered by the agent's messages; a tool call is one the agent runs, with the
approval the app gives (codex: --tool 'shell {"command":"ls src"}'); --fail, --cut, --no-stream
and --background are refused.

serve and stdio exit 0 when the transcript was fully played with no mismatch, else 1;
stdio exits with the code of an exit line it plays. record forwards with the key in
OPENAI_API_KEY (openai-chat, openai-responses, openai-realtime), ANTHROPIC_API_KEY (anthropic-messages),
GEMINI_API_KEY (gemini) or CO_API_KEY (cohere), none for ollama and opencode, or
signs each request for bedrock with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and optional
AWS_SESSION_TOKEN (the region from the upstream host, else AWS_REGION; profiles are not read),
and exits 0 when stopped; recording a stdio agent, it exits as the agent did. new exits 0
once the transcript is written. Invalid transcripts, a description new cannot write, and bad
usage exit 2.
Providers: ${providers.join(", ")}.`;

/** A command line the CLI can run. */
export type Command =
  | { readonly command: "serve"; readonly transcript: string; readonly port: number }
  | {
      readonly command: "stdio";
      readonly transcript: string;
      readonly controlPort: number;
      readonly notify: string | undefined;
      /** The arguments after `--`: the ones the app started its agent with. */
      readonly args: ReadonlyArray<string>;
    }
  | {
      readonly command: "record";
      readonly transport: "http";
      readonly provider: HttpProvider;
      readonly upstream: URL;
      readonly out: string;
      readonly port: number;
      /** Keep the time between the upstream's chunks as delay lines; false with --no-timing. */
      readonly timing: boolean;
    }
  | {
      readonly command: "record";
      readonly transport: "websocket";
      readonly provider: WebSocketProvider;
      readonly upstream: URL;
      readonly out: string;
      readonly port: number;
      /** Keep the time the server took before each message as delay lines; false with --no-timing. */
      readonly timing: boolean;
    }
  | {
      readonly command: "record";
      readonly transport: "stdio";
      readonly provider: StdioProvider;
      readonly out: string;
      /** The real agent's command line, split into words. */
      readonly agent: ReadonlyArray<string>;
      /** The arguments after `--`: the ones the app started its agent with. */
      readonly args: ReadonlyArray<string>;
      /** Keep the time the agent took before each line as delay lines; false with --no-timing. */
      readonly timing: boolean;
    }
  | { readonly command: "check"; readonly transcript: string }
  | { readonly command: "new"; readonly source: NewSource; readonly out: string | undefined; readonly args: ReadonlyArray<string> }
  | { readonly command: "help" };

const options = {
  transcript: { type: "string" },
  port: { type: "string" },
  "control-port": { type: "string" },
  notify: { type: "string" },
  provider: { type: "string" },
  upstream: { type: "string" },
  agent: { type: "string" },
  out: { type: "string" },
  from: { type: "string" },
  model: { type: "string" },
  user: { type: "string" },
  reply: { type: "string" },
  thinking: { type: "string" },
  "before-tool": { type: "string" },
  tool: { type: "string", multiple: true },
  pause: { type: "string", multiple: true },
  cut: { type: "string", multiple: true },
  fail: { type: "string" },
  background: { type: "string", multiple: true },
  "no-stream": { type: "boolean" },
  "no-usage": { type: "boolean" },
  "tokens-per-second": { type: "string" },
  "first-token-ms": { type: "string" },
  "no-timing": { type: "boolean" },
} as const;

/** The flags of `new` that describe the transcript (all but --from and --out). */
const descriptionFlags = [
  "provider",
  "model",
  "user",
  "reply",
  "thinking",
  "before-tool",
  "tool",
  "pause",
  "cut",
  "fail",
  "background",
  "no-stream",
  "no-usage",
  "tokens-per-second",
  "first-token-ms",
] as const;

type Values = ReturnType<typeof parseRest>["values"];

const parsePort = (flag: string, text: string | undefined): number | UsageError => {
  if (text === undefined) return 0;
  const port = Number(text);
  return Number.isInteger(port) && port >= 0 && port <= 65535
    ? port
    : new UsageError({ detail: `${flag} takes a port number from 0 to 65535, got "${text}"` });
};

const parseUrl = (flag: string, text: string): URL | UsageError => {
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // reported below
  }
  return new UsageError({ detail: `${flag} takes an http or https URL, like https://api.openai.com, got "${text}"` });
};

/** A WebSocket provider's upstream: ws or wss (http and https name the same servers). */
const parseWebSocketUrl = (text: string): URL | UsageError => {
  try {
    const url = new URL(text);
    if (["ws:", "wss:", "http:", "https:"].includes(url.protocol)) return url;
  } catch {
    // reported below
  }
  return new UsageError({ detail: `--upstream takes a ws or wss URL, like wss://api.openai.com, got "${text}"` });
};

/** The flags `command` does not take, as a usage error; undefined when every given flag belongs to it. */
const foreignFlags = (command: string, values: Values, allowed: ReadonlyArray<keyof Values>): UsageError | undefined => {
  const foreign = Object.keys(values).filter((flag) => !allowed.some((name) => name === flag));
  return foreign.length === 0
    ? undefined
    : new UsageError({ detail: `${command} does not take ${foreign.map((flag) => `--${flag}`).join(", ")}` });
};

const isHttpProviderName = (name: string): name is HttpProvider => httpProviders.some((provider) => provider === name);

const stdioProviders: ReadonlyArray<StdioProvider> = providers.filter(isStdioProvider);
const webSocketProviders: ReadonlyArray<WebSocketProvider> = providers.filter(isWebSocketProvider);
const isWebSocketProviderName = (name: string): name is WebSocketProvider => webSocketProviders.some((provider) => provider === name);
const isStdioProviderName = (name: string): name is StdioProvider => stdioProviders.some((provider) => provider === name);

/** `record` in front of a stdio agent: the agent's command line from --agent, the app's arguments after `--`. */
const parseStdioRecord = (
  provider: StdioProvider,
  values: Values,
  positionals: ReadonlyArray<string>,
  passed: ReadonlyArray<string>,
): Command | UsageError => {
  const { out, agent } = values;
  if (out === undefined || agent === undefined) {
    return new UsageError({ detail: `record --provider ${provider} needs --out <file> and --agent '<the real agent's command line>'` });
  }
  const networked = (["upstream", "port"] as const).filter((flag) => values[flag] !== undefined);
  if (networked.length > 0) {
    return new UsageError({
      detail: `record --provider ${provider} does not take ${networked.map((flag) => `--${flag}`).join(", ")}: the app spawns the recorder in place of its agent, and the recorder starts the --agent command`,
    });
  }
  if (positionals.length > 0) {
    return new UsageError({
      detail: `record takes no positional arguments, got ${positionals.join(" ")}; put the arguments the app passes its agent after --`,
    });
  }
  const words = splitCommand(agent);
  if (typeof words === "string") return new UsageError({ detail: `--agent ${JSON.stringify(agent)}: ${words}` });
  if (words.length === 0)
    return new UsageError({ detail: "--agent takes the real agent's command line, like --agent claude; got nothing" });
  return { command: "record", transport: "stdio", provider, out, agent: words, args: passed, timing: values["no-timing"] !== true };
};

const parseRecord = (values: Values, positionals: ReadonlyArray<string>, passed: ReadonlyArray<string>): Command | UsageError => {
  const { provider, upstream, out } = values;
  if (provider !== undefined && isStdioProviderName(provider)) return parseStdioRecord(provider, values, positionals, passed);
  if (provider === undefined || upstream === undefined || out === undefined) {
    return new UsageError({
      detail:
        "record needs --provider <p>, --upstream <url> and --out <file> (an HTTP provider), or --provider <p>, --out <file> and --agent <command line> (a stdio agent)",
    });
  }
  if (positionals.length > 0) return new UsageError({ detail: `record takes no positional arguments, got ${positionals.join(" ")}` });
  const webSocket = isWebSocketProviderName(provider);
  if (!isHttpProviderName(provider) && !webSocket) {
    return new UsageError({
      detail: `record --provider takes one of ${httpProviders.join(", ")} (HTTP providers, with --upstream), ${webSocketProviders.join(", ")} (WebSocket, with --upstream) or ${stdioProviders.join(", ")} (stdio agents, with --agent), got "${provider}"`,
    });
  }
  if (values.agent !== undefined || passed.length > 0) {
    return new UsageError({
      detail: `record --provider ${provider} records ${webSocket ? "a WebSocket" : "an HTTP"} provider through a proxy: leave out --agent and the arguments after --, which are for a stdio agent`,
    });
  }
  const url = webSocket ? parseWebSocketUrl(upstream) : parseUrl("--upstream", upstream);
  if (url instanceof UsageError) return url;
  const port = parsePort("--port", values.port);
  if (port instanceof UsageError) return port;
  return webSocket
    ? { command: "record", transport: "websocket", provider, upstream: url, out, port, timing: values["no-timing"] !== true }
    : { command: "record", transport: "http", provider, upstream: url, out, port, timing: values["no-timing"] !== true };
};

const parseNew = (values: Values, positionals: ReadonlyArray<string>, args: ReadonlyArray<string>): Command | UsageError => {
  if (positionals.length > 0) return new UsageError({ detail: `new takes no positional arguments, got ${positionals.join(" ")}` });
  if (values.from !== undefined) {
    const given = descriptionFlags.filter((flag) => values[flag] !== undefined);
    if (given.length > 0) {
      return new UsageError({
        detail: `new --from takes the whole description from its file; leave out ${given.map((flag) => `--${flag}`).join(", ")} or put them in the file`,
      });
    }
    return { command: "new", source: { from: values.from }, out: values.out, args };
  }
  const description = descriptionFromFlags(values);
  return description instanceof UsageError ? description : { command: "new", source: { description }, out: values.out, args };
};

/** Whether the arguments after the command ask for the usage: `--help` or `-h` before any `--`. */
const asksForHelp = (args: ReadonlyArray<string>): boolean => {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
};

/** The command `argv` names, or a usage error saying what is missing. */
export const parseCommand = (argv: ReadonlyArray<string>): Command | UsageError => {
  const [command, ...given] = argv;
  if (command === undefined) return new UsageError({ detail: "no command given" });
  // The options of stdio and record end at `--`; what follows is what the app passed its agent.
  const dashes = command === "stdio" || command === "record" ? given.indexOf("--") : -1;
  const rest = dashes === -1 ? given : given.slice(0, dashes);
  const passed = dashes === -1 ? [] : given.slice(dashes + 1);
  if (command === "--help" || command === "-h" || command === "help" || asksForHelp(rest)) return { command: "help" };
  let parsed: ReturnType<typeof parseRest>;
  try {
    parsed = parseRest(rest);
  } catch (error) {
    return new UsageError({ detail: error instanceof Error ? error.message : String(error) });
  }
  const { values, positionals } = parsed;
  switch (command) {
    case "serve": {
      if (values.transcript === undefined) return new UsageError({ detail: "serve needs --transcript <file>" });
      if (positionals.length > 0) return new UsageError({ detail: `serve takes no positional arguments, got ${positionals.join(" ")}` });
      const foreign = foreignFlags(command, values, ["transcript", "port"]);
      if (foreign !== undefined) return foreign;
      const port = parsePort("--port", values.port);
      return port instanceof UsageError ? port : { command, transcript: values.transcript, port };
    }
    case "stdio": {
      if (values.transcript === undefined) return new UsageError({ detail: "stdio needs --transcript <file>" });
      if (positionals.length > 0) {
        return new UsageError({
          detail: `stdio takes no positional arguments, got ${positionals.join(" ")}; put the arguments the app passes its agent after --`,
        });
      }
      const foreign = foreignFlags(command, values, ["transcript", "control-port", "notify"]);
      if (foreign !== undefined) return foreign;
      const notify = values.notify === undefined ? undefined : parseUrl("--notify", values.notify);
      if (notify instanceof UsageError) return notify;
      const controlPort = parsePort("--control-port", values["control-port"]);
      return controlPort instanceof UsageError
        ? controlPort
        : { command, transcript: values.transcript, controlPort, notify: notify?.href, args: passed };
    }
    case "record": {
      const foreign = foreignFlags(command, values, ["provider", "upstream", "out", "port", "agent", "no-timing"]);
      return foreign ?? parseRecord(values, positionals, passed);
    }
    case "new": {
      const foreign = foreignFlags(command, values, ["from", "out", ...descriptionFlags]);
      return foreign ?? parseNew(values, positionals, rest);
    }
    case "check": {
      const [transcript, ...extra] = positionals;
      if (transcript === undefined || extra.length > 0 || Object.keys(values).length > 0) {
        return new UsageError({ detail: "check takes exactly one transcript file" });
      }
      return { command, transcript };
    }
    default:
      return new UsageError({ detail: `unknown command "${command}"` });
  }
};

const parseRest = (args: ReadonlyArray<string>) => parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
