import { simpleGit, type SimpleGit, type SimpleGitOptions } from "simple-git";

/**
 * Every simple-git "unsafe" guard lifted: the arguments are our own and git must see the user's
 * whole environment (ssh command, credential helper, config). The type keeps the list complete.
 */
export const trusted: Required<Omit<NonNullable<SimpleGitOptions["unsafe"]>, "allowUnsafeCustomBinary" | "allowAbbreviatedOptions">> = {
  allowUnsafeAlias: true,
  allowUnsafeAskPass: true,
  allowUnsafeCommandBinaries: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeEditor: true,
  allowUnsafeMergeDriver: true,
  allowUnsafePager: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafePack: true,
  allowUnsafeSshCommand: true,
  allowUnsafeGitProxy: true,
  allowUnsafeExec: true,
  allowUnsafeHooksPath: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeFilter: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeTemplateDir: true,
  allowUnsafeInclude: true,
  allowUnsafeSubmodule: true,
  allowUnsafeUrlRewrite: true,
};

/** The whole environment plus `extra`; GIT_TERMINAL_PROMPT=0 so a missing credential fails instead of waiting for a person. */
export function environment(extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, GIT_TERMINAL_PROMPT: "0", ...extra };
}

/**
 * git in `baseDir` as the user runs it: their whole environment plus `extra`, their config trusted,
 * stopped through `abort` (so an interrupted command stops git too); `errors` as simple-git takes it.
 */
export function userGit(
  baseDir: string,
  options: {
    readonly abort?: AbortSignal;
    readonly errors?: SimpleGitOptions["errors"];
    readonly extra?: Readonly<Record<string, string>>;
  } = {},
): SimpleGit {
  const env = environment(options.extra ?? {});
  const { abort, errors } = options;
  return simpleGit({
    baseDir,
    allowEnvironment: Object.keys(env),
    unsafe: trusted,
    ...(abort === undefined ? {} : { abort }),
    ...(errors === undefined ? {} : { errors }),
  }).env(env);
}

/** git's message on one line: its lines trimmed, the empty ones dropped, joined with "; ". */
export const gitErrorDetail = (error: unknown) =>
  (error instanceof Error ? error.message : String(error))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("; ");
