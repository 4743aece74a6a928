import { execa, type Options, type ResultPromise } from "execa";

/** How much of a process's latest output is kept for its messages (a ready line looked for, an error's excerpt). */
const recentWindow = 64 * 1024;

/** A service's (or prepare's) process, started with its output recorded into the services' log as it comes. */
export interface RecordedProcess {
  readonly child: ResultPromise;
  /** Its latest output, up to 64 KiB. */
  recent(): string;
}

/**
 * Starts `file` with `args` (or, with none, `file` as a shell command) with exactly `options.env`, no stdin and its
 * output, stdout and stderr interleaved, going to `record` and kept (the latest part) for `recent()`; the process never
 * rejects: its result says how it ended.
 */
export function startRecorded(
  file: string,
  args: ReadonlyArray<string> | undefined,
  options: Pick<Options, "cwd" | "env" | "detached" | "forceKillAfterDelay">,
  record: (chunk: string) => void,
): RecordedProcess {
  const settings = { ...options, extendEnv: false, stdin: "ignore", all: true, reject: false, buffer: false } as const;
  const child = args === undefined ? execa(file, { ...settings, shell: true }) : execa(file, args, settings);
  let recent = "";
  child.all?.setEncoding("utf8");
  child.all?.on("data", (chunk: string) => {
    recent = `${recent}${chunk}`.slice(-recentWindow);
    record(chunk);
  });
  return { child, recent: () => recent };
}
