import * as Result from "effect/Result";
import { UsageError } from "../errors.ts";
import { newProviders } from "../transcript/providers.ts";
import { decodeDescription, type Description, type Turn } from "./description.ts";
import { commandLine } from "./errors.ts";
import { templateOf, thinkingProviders } from "./templates.ts";

/** The description flags of `replay-agent new`, as parsed from the command line. */
export interface NewFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly user?: string | undefined;
  readonly reply?: string | undefined;
  readonly thinking?: string | undefined;
  readonly "before-tool"?: string | undefined;
  readonly tool?: ReadonlyArray<string> | undefined;
  readonly pause?: ReadonlyArray<string> | undefined;
  readonly cut?: ReadonlyArray<string> | undefined;
  readonly fail?: string | undefined;
  readonly background?: ReadonlyArray<string> | undefined;
  readonly "no-stream"?: boolean | undefined;
  readonly "no-usage"?: boolean | undefined;
  readonly "tokens-per-second"?: string | undefined;
  readonly "first-token-ms"?: string | undefined;
}

const usageError = (detail: string) => new UsageError({ detail });

/** `list_files {"path":"src"}`: a tool's name, then its arguments as a JSON object (none: `{}`). */
const parseTool = (text: string): NonNullable<Turn["tools"]>[number] | UsageError => {
  const [, name, rest = ""] = /^\s*(\S+)\s*([\s\S]*)$/.exec(text) ?? [];
  const example = `like --tool 'list_files {"path":"src"}'`;
  if (name === undefined) return usageError(`--tool takes a tool's name and its arguments as JSON, ${example}; got "${text}"`);
  if (rest.trim() === "") return { name, arguments: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rest);
  } catch (error) {
    return usageError(
      `--tool "${text}": the arguments after "${name}" are not JSON (${error instanceof Error ? error.message : String(error)}). Write them as a JSON object, ${example}`,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return usageError(`--tool "${text}": the arguments after "${name}" must be a JSON object, ${example}`);
  }
  return { name, arguments: parsed as Record<string, unknown> };
};

/** `title=Math helpers`: a background lane's name and the reply it answers with. */
const parseBackground = (text: string) => {
  const at = text.indexOf("=");
  if (at <= 0) return usageError(`--background takes <lane>=<reply>, like --background 'title=Math helpers'; got "${text}"`);
  return { lane: text.slice(0, at), reply: text.slice(at + 1) };
};

/** The meta line's pace from --tokens-per-second and --first-token-ms: numbers, above 0 and from 0 up. */
const parsePace = (flags: NewFlags): { readonly pace?: { tokensPerSecond?: number; firstTokenMs?: number } } | UsageError => {
  const perSecond = flags["tokens-per-second"];
  const firstMs = flags["first-token-ms"];
  const tokensPerSecond = perSecond === undefined ? undefined : Number(perSecond);
  const firstTokenMs = firstMs === undefined ? undefined : Number(firstMs);
  if (tokensPerSecond !== undefined && !(Number.isFinite(tokensPerSecond) && tokensPerSecond > 0 && perSecond?.trim() !== "")) {
    return usageError(
      `--tokens-per-second takes how many frames a second the answers stream, a number greater than 0, like --tokens-per-second 40; got "${perSecond ?? ""}"`,
    );
  }
  if (firstTokenMs !== undefined && !(Number.isFinite(firstTokenMs) && firstTokenMs >= 0 && firstMs?.trim() !== "")) {
    return usageError(
      `--first-token-ms takes the milliseconds before each answer's first frame, a number from 0 up, like --first-token-ms 600; got "${firstMs ?? ""}"`,
    );
  }
  if (tokensPerSecond === undefined && firstTokenMs === undefined) return {};
  return {
    pace: {
      ...(tokensPerSecond === undefined ? {} : { tokensPerSecond }),
      ...(firstTokenMs === undefined ? {} : { firstTokenMs }),
    },
  };
};

const all = <A>(results: ReadonlyArray<A | UsageError>): ReadonlyArray<A> | UsageError => {
  const failure = results.find((result) => result instanceof UsageError);
  return failure ?? results.flatMap((result) => (result instanceof UsageError ? [] : [result]));
};

/** The turns one command line describes: an optional failed try, the tool call and its answer, or the reply. */
const turnsOf = (flags: NewFlags, tools: NonNullable<Turn["tools"]>): ReadonlyArray<Turn> | UsageError => {
  const user = flags.user ?? "";
  const stream = flags["no-stream"] === true ? { stream: false } : {};
  const pause = {
    ...(flags.pause === undefined || flags.pause.length === 0 ? {} : { pause: flags.pause }),
    ...(flags.cut === undefined || flags.cut.length === 0 ? {} : { cut: flags.cut }),
  };
  if (flags["before-tool"] !== undefined && tools.length === 0) {
    return usageError("--before-tool is the text streamed before a tool call: add --tool '<name> <json>', or say it with --reply");
  }
  if (flags.fail !== undefined && !/^\d+$/.test(flags.fail))
    return usageError(`--fail takes an HTTP error status from 400 to 599, like --fail 429; got "${flags.fail}"`);
  const failed: ReadonlyArray<Turn> = flags.fail === undefined ? [] : [{ user, fail: Number(flags.fail) }];
  const thinking = flags.thinking === undefined ? {} : { thinking: flags.thinking };
  if (tools.length > 0) {
    if (flags.reply === undefined)
      return usageError("--tool needs --reply <text>: the answer to the request that carries the tool's result");
    const call: Turn = {
      user,
      ...thinking,
      ...(flags["before-tool"] === undefined ? {} : { reply: flags["before-tool"] }),
      tools,
      ...stream,
    };
    return [...failed, call, { reply: flags.reply, ...pause, ...stream }];
  }
  if (flags.reply === undefined) {
    if (flags.fail !== undefined && flags.pause === undefined && flags.cut === undefined && flags.thinking === undefined) return failed;
    return usageError("new needs --reply <text> (the answer), --tool '<name> <json>' with --reply, or --fail <status>");
  }
  return [...failed, { user, ...thinking, reply: flags.reply, ...pause, ...stream }];
};

/** The description the command line's flags make, decoded and checked as a `--from` file would be. */
export const descriptionFromFlags = (flags: NewFlags): Description | UsageError => {
  if (flags.provider === undefined || flags.user === undefined) {
    return usageError(
      "new needs --provider <p> and --user <text> (the last user message the request carries), or --from <description.json>",
    );
  }
  const provider = newProviders.find((name) => name === flags.provider);
  if (provider === undefined) {
    return usageError(`new --provider takes one of ${newProviders.join(", ")}, got "${flags.provider}"`);
  }
  const badPause = (flags.pause ?? []).find((pause) => !/^[^@\s][^@]*@\d+$/.test(pause));
  if (badPause !== undefined) {
    return usageError(
      `--pause takes <name>@<n>, the pause's name and after how many deltas of the reply it holds, like --pause mid-stream@3 (@0: before the first frame); got "${badPause}"`,
    );
  }
  const badCut = (flags.cut ?? []).find((cut) => !/^[^@\s][^@]*@\d+$/.test(cut));
  if (badCut !== undefined) {
    return usageError(
      `--cut takes <name>@<n>, the pause's name and which delta of the reply it cuts in two (from 1), like --cut half-event@2; got "${badCut}"`,
    );
  }
  if (flags["no-usage"] === true && provider !== "openai-chat") {
    return usageError(
      `--no-usage is for openai-chat, where the usage chunk is the request's choice (stream_options.include_usage); ${provider} always sends usage`,
    );
  }
  if (flags.thinking !== undefined && !templateOf(provider).thinking) {
    return usageError(
      `--thinking: replay-agent new writes no thinking for ${provider}, only for ${thinkingProviders}. Leave out --thinking, or pick one of those with --provider`,
    );
  }
  const tools = all((flags.tool ?? []).map(parseTool));
  if (tools instanceof UsageError) return tools;
  const background = all((flags.background ?? []).map(parseBackground));
  if (background instanceof UsageError) return background;
  const turns = turnsOf(flags, [...tools]);
  if (turns instanceof UsageError) return turns;
  const pace = parsePace(flags);
  if (pace instanceof UsageError) return pace;
  const raw = {
    provider: flags.provider,
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags["no-usage"] === true ? { usage: false } : {}),
    ...pace,
    turns,
    ...(background.length === 0 ? {} : { background }),
  };
  const description = decodeDescription(commandLine, raw);
  return Result.isSuccess(description) ? description.success : new UsageError({ detail: description.failure.message });
};
