import { existsSync, watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { preparedFileEnv, preparedStop } from "../common/contract.ts";
import { HarnessError } from "./errors.ts";

/** Resolves when `file` exists: watched from before it is looked for, so its creation is never missed. */
function appears(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if (name === basename(file)) done();
    });
    watcher.on("error", (error) => {
      watcher.close();
      reject(error);
    });
    function done() {
      watcher.close();
      resolve();
    }
    if (existsSync(file)) done();
  });
}

/**
 * In a prover's run started while its side installs (preparedFileEnv set), waits until the side is
 * ready for its app to start; a side that cannot run ends the run here. Outside a proof: nothing to
 * wait for. The prover renames the file into place, so it is whole when it appears.
 */
export async function untilPrepared(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = env[preparedFileEnv];
  if (file === undefined || file === "") return;
  await appears(file);
  if ((await readFile(file, "utf8")).trim() === preparedStop) {
    throw new HarnessError(
      "boot",
      "the prover stopped this run before the app started: its side could not install or build, or the proof was stopped",
    );
  }
}
