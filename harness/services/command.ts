import { once } from "node:events";
import { killGroup } from "../app-server.ts";
import { readyTimeoutMs } from "../app-settings.ts";
import type { CommandServiceConfig } from "../config.ts";
import { substitute } from "../environment.ts";
import { HarnessError } from "../errors.ts";
import { logExcerpt } from "../log-excerpt.ts";
import { untilPathAnswers } from "../ready-path.ts";
import type { RunningService, ServiceContext, ServiceKind } from "./kind.ts";
import { killServiceProcesses, runIdOf } from "./processes.ts";
import { startRecorded } from "./recorded-process.ts";

/** How long a command service has after SIGTERM before it is killed. */
const stopGraceMs = 5_000;

/** Starts the command in the app's folder, in its own process group, and resolves once its ready path answers or its ready line appears. */
async function startCommand(root: string, config: CommandServiceConfig, context: ServiceContext): Promise<RunningService> {
  const fill = (text: string) =>
    substitute(text, {
      port: context.port,
      home: context.dataDir,
      replay: undefined,
      replayCommand: undefined,
      replayExecutable: undefined,
    });
  const command = fill(config.command);
  const url = fill(config.url ?? "http://127.0.0.1:{port}");
  const { child, recent } = startRecorded(
    command,
    undefined,
    { cwd: root, env: { ...context.env, PORT: String(context.port) }, detached: true },
    context.record,
  );
  const runId = runIdOf(context.env);
  const stop = async () => {
    const group = child.pid;
    if (group !== undefined && child.exitCode === null && child.signalCode === null) {
      killGroup(group, "SIGTERM");
      const timer = setTimeout(() => killGroup(group, "SIGKILL"), stopGraceMs);
      await child;
      clearTimeout(timer);
    }
    await killServiceProcesses(runId, context.dataDir);
  };

  const ready = config.ready;
  const timeoutMs = readyTimeoutMs(ready);
  const failed = (why: string) =>
    new HarnessError(
      "boot",
      `Service "${context.name}" (\`${command}\`) ${why}. Check app.services.${context.name} in the scenario config. Its output:\n${logExcerpt(recent())}`,
    );
  const stopWaiting = new AbortController();
  const up =
    "path" in ready
      ? untilPathAnswers(new URL(ready.path, `http://127.0.0.1:${context.port}`), stopWaiting.signal)
      : new Promise<void>((resolve) => {
          const pattern = typeof ready.log === "string" ? new RegExp(ready.log) : ready.log;
          const look = () => {
            if (pattern.test(recent())) resolve();
          };
          child.all?.on("data", look);
          stopWaiting.signal.addEventListener("abort", () => child.all?.off("data", look));
        });
  const exited = child.then((result) => {
    if (!stopWaiting.signal.aborted) throw failed(`exited with code ${String(result.exitCode)} before it was ready`);
  });
  const timeout = once(AbortSignal.timeout(timeoutMs), "abort").then(() => {
    if (!stopWaiting.signal.aborted) {
      const waited = "path" in ready ? `GET ${ready.path} answering` : `a line matching ${String(ready.log)}`;
      throw failed(`was not ready within ${timeoutMs / 1000}s (waiting for ${waited} on port ${context.port})`);
    }
  });
  try {
    await Promise.race([up, exited, timeout]);
  } catch (error) {
    stopWaiting.abort();
    await stop();
    throw error;
  }
  stopWaiting.abort();
  return { values: { url, host: "127.0.0.1", port: String(context.port) }, stop };
}

/** The `command` kind: any program the config names, started as the app is, on its own port. */
export const commandKind = (root: string): ServiceKind<CommandServiceConfig> => ({
  kind: "command",
  start: (config, context) => startCommand(root, config, context),
});
